"use client";

import Link from "next/link";
import type { Build } from "@/contract/builds/builds.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { Badge } from "../ui/badge.tsx";
import { buttonClasses } from "../ui/button.tsx";
import { PageHeader } from "../ui/card.tsx";
import { type Column, DataTable } from "../ui/data-table.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { buildLabel, buildTone, deployHref, duration } from "./build-format.ts";
import { useBuilds } from "./build-queries.ts";
import { StartImageBuild, StartModelBuild } from "./start-build-forms.tsx";

const columns: Column<Build>[] = [
  {
    key: "build",
    header: "Build",
    cell: (build) => (
      <Link href={`/builds/${encodeURIComponent(build.id)}`} className="font-medium text-blue-800 hover:underline">
        {buildLabel(build)}
      </Link>
    ),
    sortValue: (build) => buildLabel(build),
    filterText: (build) => `${buildLabel(build)} ${build.id}`,
  },
  {
    key: "status",
    header: "Status",
    cell: (build) => <Badge tone={buildTone(build.status)}>{build.status}</Badge>,
    sortValue: (build) => build.status,
    filterText: (build) => build.status,
  },
  { key: "phase", header: "Phase", cell: (build) => build.currentPhase ?? "—" },
  {
    key: "started",
    header: "Started",
    cell: (build) => <Timestamp at={build.startedAt} />,
    sortValue: (build) => (build.startedAt ? Date.parse(build.startedAt) : 0),
  },
  { key: "duration", header: "Duration", cell: (build) => duration(build.startedAt, build.endedAt) },
  {
    key: "output",
    header: "Output",
    cell: (build) => {
      const href = deployHref(build);
      return href ? (
        <Link href={href} className={buttonClasses("secondary", "sm")}>
          Deploy this
        </Link>
      ) : (
        "—"
      );
    },
  },
];

export function BuildsView() {
  const { data, error, isPending } = useBuilds();
  return (
    <>
      <PageHeader title="Builds" description="Model packaging to S3 and adapter images to ECR, run by CodeBuild." />
      <div className="mb-6 grid gap-4 lg:grid-cols-2">
        <StartModelBuild />
        <StartImageBuild />
      </div>
      <h2 className="mb-2 text-lg font-semibold">Recent builds</h2>
      {error && <ErrorAlert title="Could not list builds" error={error} />}
      {isPending && <p className="text-sm text-slate-700">Loading builds…</p>}
      {data && data.builds.length === 0 && <p className="text-sm text-slate-700">No builds yet: start one above.</p>}
      {data && data.builds.length > 0 && (
        <DataTable
          caption="Builds"
          columns={columns}
          rows={data.builds}
          rowKey={(build) => build.id}
          initialSort={{ key: "started", direction: "descending" }}
          filterLabel="Filter builds"
        />
      )}
    </>
  );
}
