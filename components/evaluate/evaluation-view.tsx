"use client";

import Link from "next/link";
import { useState } from "react";
import { apiUrl } from "../api/console-client.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { Alert } from "../ui/alert.tsx";
import { Button, buttonClasses } from "../ui/button.tsx";
import { Card, PageHeader } from "../ui/card.tsx";
import { SelectField } from "../ui/field.tsx";
import { ProgressBar } from "../ui/progress-bar.tsx";
import { Timestamp, timestampText } from "../ui/timestamp.tsx";
import { BatchJobNote } from "./batch-job-note.tsx";
import { ComparisonTable } from "./comparison-table.tsx";
import { EndpointResults } from "./endpoint-results.tsx";
import { useCancelEvaluation, useEvaluation, useEvaluations, useRetryFailedItems } from "./evaluation-queries.ts";
import { FailedItemsNote } from "./failed-items-note.tsx";
import { duration } from "./format.ts";
import { RunStatusBadge } from "./run-status-badge.tsx";

export function EvaluationView({ id }: { id: string }) {
  const [compareWith, setCompareWith] = useState<string | null>(null);
  const evaluation = useEvaluation(id, compareWith);
  const all = useEvaluations();
  const cancel = useCancelEvaluation(id);
  const retry = useRetryFailedItems(id);
  const run = evaluation.data;

  if (evaluation.isError) return <ErrorAlert title="The evaluation cannot be shown" error={evaluation.error} />;
  if (!run) return <p className="text-sm text-slate-700">Loading the evaluation…</p>;

  const fraction = run.progress.total === 0 ? 0 : run.progress.done / run.progress.total;
  const siblings = (all.data?.evaluations ?? []).filter(
    (other) => other.id !== run.id && other.datasetId === run.datasetId && other.progress.done > 0,
  );

  return (
    <>
      <PageHeader
        title={`Evaluation of ${run.datasetName ?? run.datasetId}`}
        description={
          <span>
            {run.batch ? `model ${run.batch.modelName} in a batch transform job` : run.endpoints.join(" vs ")}
            {!run.batch && ` · concurrency ${run.concurrency}`} · started <Timestamp at={run.createdAt} />{" "}
            <RunStatusBadge outcome={run.outcome} />
          </span>
        }
        actions={
          <div className="flex gap-2">
            <a
              className={buttonClasses("secondary", "sm")}
              href={apiUrl("exportEvaluation", { params: { id: run.id }, query: { format: "csv" } })}
              download
            >
              Export CSV
            </a>
            <a
              className={buttonClasses("secondary", "sm")}
              href={apiUrl("exportEvaluation", { params: { id: run.id }, query: { format: "json" } })}
              download
            >
              Export JSON
            </a>
            <Link className={buttonClasses("ghost", "sm")} href="/evaluate">
              All evaluations
            </Link>
          </div>
        }
      />
      <div className="flex flex-col gap-4">
        <Card title="Progress">
          <div className="flex flex-col gap-2">
            <ProgressBar label="Evaluation progress" done={run.progress.done} total={run.progress.total} />
            <p className="text-sm" aria-live="polite" data-testid="progress-text">
              {run.progress.done} of {run.progress.total} requests done ({Math.floor(fraction * 100)}%)
              {run.status === "running" && ` · about ${duration(run.progress.etaSeconds)} left`}
              {run.status !== "running" && ` · ${run.outcome.replaceAll("_", " ")}`}
            </p>
            {run.progress.endpoints.length > 1 && (
              <ul className="text-xs text-slate-700">
                {run.progress.endpoints.map((endpoint) => (
                  <li key={endpoint.slot}>
                    {endpoint.endpointName}: {endpoint.done}/{endpoint.total}
                  </li>
                ))}
              </ul>
            )}
            {run.batch && <BatchJobNote batch={run.batch} />}
            {run.failure && <Alert title="The run failed">{run.failure}</Alert>}
            {run.status === "running" && (
              <div>
                <Button variant="danger" size="sm" disabled={cancel.isPending} onClick={() => cancel.mutate()}>
                  Cancel evaluation
                </Button>
              </div>
            )}
            {cancel.isError && <ErrorAlert error={cancel.error} />}
            <FailedItemsNote run={run} retrying={retry.isPending} onRetry={() => retry.mutate()} />
            {retry.isError && <ErrorAlert error={retry.error} />}
          </div>
        </Card>
        {(run.comparison || siblings.length > 0) && (
          <Card title="Side by side">
            <div className="flex flex-col gap-3">
              {siblings.length > 0 && (
                <div className="max-w-md">
                  <SelectField
                    label="Compare with"
                    value={compareWith ?? ""}
                    onChange={(event) => setCompareWith(event.target.value || null)}
                  >
                    <option value="">
                      {run.endpoints.length > 1 ? "This run's two endpoints" : "Choose another run…"}
                    </option>
                    {siblings.map((other) => (
                      <option key={other.id} value={other.id}>
                        {other.endpoints.join(" vs ")} · {timestampText(other.createdAt)}
                      </option>
                    ))}
                  </SelectField>
                </div>
              )}
              {run.comparison && <ComparisonTable comparison={run.comparison} />}
            </div>
          </Card>
        )}
        {run.results.map((result) => (
          <EndpointResults
            key={result.slot}
            result={result}
            targetAccuracy={run.targetAccuracy}
            completedRunId={run.status === "completed" ? run.id : null}
          />
        ))}
      </div>
    </>
  );
}
