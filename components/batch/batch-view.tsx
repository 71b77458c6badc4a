"use client";

import Link from "next/link";
import type { TransformJobSummary } from "@/contract/batch/transform-jobs.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { Badge } from "../ui/badge.tsx";
import { PageHeader } from "../ui/card.tsx";
import { type Column, DataTable } from "../ui/data-table.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { jobTone, seconds } from "./batch-format.ts";
import { useTransformJobs } from "./batch-queries.ts";
import { StartJobForm } from "./start-job-form.tsx";

const columns: Column<TransformJobSummary>[] = [
  {
    key: "name",
    header: "Job",
    cell: (job) => (
      <Link href={`/batch/${encodeURIComponent(job.name)}`} className="font-medium text-blue-800 hover:underline">
        {job.name}
      </Link>
    ),
    sortValue: (job) => job.name,
    filterText: (job) => job.name,
  },
  {
    key: "status",
    header: "Status",
    cell: (job) => <Badge tone={jobTone(job.status)}>{job.status}</Badge>,
    sortValue: (job) => job.status,
    filterText: (job) => `${job.status} ${job.failureReason ?? ""}`,
  },
  {
    key: "created",
    header: "Started",
    cell: (job) => <Timestamp at={job.createdAt} />,
    sortValue: (job) => Date.parse(job.createdAt),
  },
  { key: "duration", header: "Duration", cell: (job) => seconds(job.durationSeconds) },
  {
    key: "reason",
    header: "Failure reason",
    cell: (job) => <span className="line-clamp-2 text-xs">{job.failureReason ?? "—"}</span>,
  },
];

export function BatchView() {
  const { data, error, isPending } = useTransformJobs();
  return (
    <>
      <PageHeader
        title="Batch jobs"
        description="SageMaker Batch Transform: JSON Lines from S3 split across instances of a model, one output line per input line."
      />
      <div className="mb-6">
        <StartJobForm />
      </div>
      <h2 className="mb-2 text-lg font-semibold">Jobs</h2>
      {error && <ErrorAlert title="Could not list batch jobs" error={error} />}
      {isPending && <p className="text-sm text-slate-700">Loading jobs…</p>}
      {data && data.jobs.length === 0 && <p className="text-sm text-slate-700">No batch jobs yet: start one above.</p>}
      {data && data.jobs.length > 0 && (
        <DataTable
          caption="Batch transform jobs"
          columns={columns}
          rows={data.jobs}
          rowKey={(job) => job.name}
          initialSort={{ key: "created", direction: "descending" }}
          filterLabel="Filter jobs"
        />
      )}
    </>
  );
}
