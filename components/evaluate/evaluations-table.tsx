"use client";

import Link from "next/link";
import type { EvaluationSummary } from "@/contract/evaluate/evaluations.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { Card } from "../ui/card.tsx";
import { type Column, DataTable } from "../ui/data-table.tsx";
import { timestampText } from "../ui/timestamp.tsx";
import { useEvaluations } from "./evaluation-queries.ts";
import { percent } from "./format.ts";
import { RunStatusBadge } from "./run-status-badge.tsx";

const columns: Column<EvaluationSummary>[] = [
  {
    key: "created",
    header: "Started",
    cell: (run) => (
      <Link className="text-blue-800 underline" href={`/evaluate/${run.id}`}>
        {timestampText(run.createdAt)}
      </Link>
    ),
    sortValue: (run) => Date.parse(run.createdAt),
  },
  {
    key: "dataset",
    header: "Dataset",
    cell: (run) => run.datasetName ?? run.datasetId,
    filterText: (run) => run.datasetName ?? "",
  },
  {
    key: "endpoints",
    header: "Endpoints",
    cell: (run) => run.endpoints.join(" vs "),
    filterText: (run) => run.endpoints.join(" "),
  },
  {
    key: "status",
    header: "Status",
    cell: (run) => <RunStatusBadge outcome={run.outcome} />,
    sortValue: (run) => run.outcome,
  },
  { key: "progress", header: "Done", cell: (run) => `${run.progress.done} / ${run.progress.total}` },
  {
    key: "accuracy",
    header: "Accuracy",
    cell: (run) => (
      <ul>
        {run.accuracy.map((cell) => (
          <li key={cell.endpointName} className="whitespace-nowrap tabular-nums">
            {run.accuracy.length > 1 && <span className="text-slate-700">{cell.endpointName}: </span>}
            {percent(cell.accuracy)}{" "}
            <span className="text-slate-700">
              ({cell.correct}/{cell.answered}){cell.failed > 0 && ` · ${cell.failed} failed`}
            </span>
          </li>
        ))}
      </ul>
    ),
    sortValue: (run) => run.accuracy[0]?.accuracy ?? -1,
  },
];

export function EvaluationsTable() {
  const evaluations = useEvaluations();
  return (
    <Card title="Evaluations">
      {evaluations.isError && <ErrorAlert error={evaluations.error} />}
      {evaluations.data && evaluations.data.evaluations.length === 0 && (
        <p className="text-sm text-slate-700">No evaluation yet: choose a dataset and an endpoint above.</p>
      )}
      {evaluations.data && evaluations.data.evaluations.length > 0 && (
        <DataTable
          caption="Evaluation runs"
          columns={columns}
          rows={evaluations.data.evaluations}
          rowKey={(run) => run.id}
          initialSort={{ key: "created", direction: "descending" }}
          filterLabel="Filter evaluations"
        />
      )}
    </Card>
  );
}
