"use client";

import { ErrorAlert } from "../api/error-text.tsx";
import { Card, PageHeader } from "../ui/card.tsx";
import { useModelGroup } from "./model-queries.ts";
import { VersionsComparison } from "./versions-comparison.tsx";

export function ModelGroupView({ group }: { group: string }) {
  const detail = useModelGroup(group);
  if (detail.isPending) return <p className="text-sm text-slate-700">Loading model group…</p>;
  if (detail.error || !detail.data) return <ErrorAlert title={`Could not load ${group}`} error={detail.error} />;
  const { data } = detail;
  return (
    <>
      <PageHeader title={data.name} description={data.description ?? "Model package group"} />
      <Card title={`Versions (${data.versions.length})`}>
        {data.versions.length > 0 ? (
          <VersionsComparison versions={data.versions} />
        ) : (
          <p className="text-sm text-slate-700">No versions.</p>
        )}
      </Card>
    </>
  );
}
