"use client";

import type { TransformJobDetail } from "@/contract/batch/transform-jobs.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { Alert } from "../ui/alert.tsx";
import { Badge } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";
import { Card, PageHeader } from "../ui/card.tsx";
import { jobTone, seconds } from "./batch-format.ts";
import { useStopTransformJob, useTransformJob } from "./batch-queries.ts";

export function JobDetailView({ name }: { name: string }) {
  const { data: job, error, isPending } = useTransformJob(name);
  const stop = useStopTransformJob(name);
  if (isPending) return <p className="text-sm text-slate-700">Loading job…</p>;
  if (error || !job) return <ErrorAlert title="Could not load this job" error={error} />;
  return (
    <>
      <PageHeader
        title={job.name}
        description={<Badge tone={jobTone(job.status)}>{job.status}</Badge>}
        actions={
          job.status === "InProgress" && (
            <Button variant="danger" disabled={stop.isPending} onClick={() => stop.mutate()}>
              {stop.isPending ? "Stopping…" : "Stop job"}
            </Button>
          )
        }
      />
      {stop.error && <ErrorAlert title="Could not stop the job" error={stop.error} />}
      {job.failureReason && (
        <div className="mb-4">
          <Alert title="Failure reason">
            <FailureDetail job={job} />
          </Alert>
        </div>
      )}
      <div className="grid gap-4 lg:grid-cols-[24rem_minmax(0,1fr)]">
        <div className="flex min-w-0 flex-col gap-4">
          <Definition job={job} />
          <Progress job={job} />
        </div>
        <JobLogs job={job} />
      </div>
      {job.outputPreview.length > 0 && (
        <div className="mt-4">
          <OutputPreview job={job} />
        </div>
      )}
    </>
  );
}

function Definition({ job }: { job: TransformJobDetail }) {
  const rows: [string, string][] = [
    ["Model", job.modelName],
    ["Image", job.model ? (job.model.imageUri ?? "—") : "— (the model was deleted)"],
    ["From build", job.model?.sourceBuildId ?? "—"],
    ["Input", job.inputS3Uri],
    ["Output", job.outputS3Uri],
    ["Instances", `${job.instanceCount} × ${job.instanceType}`],
    [
      "Max concurrent",
      job.maxConcurrentTransforms === null ? "from /execution-parameters" : String(job.maxConcurrentTransforms),
    ],
    ["Batch strategy", job.batchStrategy ?? "from /execution-parameters"],
    ["Max payload", job.maxPayloadInMB === null ? "from /execution-parameters" : `${job.maxPayloadInMB} MB`],
    ["Duration", seconds(job.durationSeconds)],
    ["Cost estimate", job.costEstimateUsd === null ? "—" : `$${job.costEstimateUsd.toFixed(4)}`],
  ];
  return (
    <Card title="Job">
      <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-700">{label}</dt>
            <dd className="break-all font-mono text-xs">{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

/** Records answered (from the containers' request log, as readable on AWS), then the objects SageMaker wrote. */
export function Progress({ job }: { job: TransformJobDetail }) {
  return (
    <Card title="Progress">
      {job.recordsAnswered !== null && (
        <p className="text-sm" data-testid="records-answered">
          {job.recordsAnswered}
          {job.inputRecords !== null && ` of ${job.inputRecords}`} record(s) answered.
        </p>
      )}
      <p className="text-sm">
        {job.outputs.length} of {job.inputObjects ?? "?"} input object(s) written
        {job.recordsDone !== null && `, ${job.recordsDone} output line(s)`}.
      </p>
      <p className="mt-1 text-xs text-slate-700">
        Records answered are counted from the containers' request log; SageMaker writes each input's .out once all its
        lines are answered.
      </p>
      {job.outputs.length > 0 && (
        <ul aria-label="Output objects" className="mt-2 flex flex-col gap-1 text-xs">
          {job.outputs.map((output) => (
            <li key={output.s3Uri} className="break-all font-mono">
              {output.s3Uri} ({output.bytes} bytes)
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** The first output records, each beside the input line it answers. */
export function OutputPreview({ job }: { job: TransformJobDetail }) {
  return (
    <Card title="Output preview">
      <ol aria-label="Output records" className="flex flex-col gap-2 text-xs">
        {job.outputPreview.map((record) => (
          <li key={`${record.s3Uri}:${record.line}`} className="min-w-0 rounded border border-slate-200 p-2">
            <p className="break-all text-slate-700">
              {record.s3Uri.split("/").at(-1)}, input line {record.line}
            </p>
            <p className="break-all font-mono">
              <span className="text-slate-700">in </span>
              {record.input}
            </p>
            <p className="break-all font-mono">
              <span className="text-slate-700">out </span>
              {record.output}
            </p>
          </li>
        ))}
      </ol>
    </Card>
  );
}

/** Every instance's log lines, wrapped (a line as long as a decision must not widen the page). */
export function JobLogs({ job }: { job: Pick<TransformJobDetail, "name" | "logs"> }) {
  return (
    <Card title="Logs">
      {job.logs.length === 0 ? (
        <p className="text-sm text-slate-700">No log lines yet.</p>
      ) : (
        <pre
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable log must be reachable by keyboard
          tabIndex={0}
          role="log"
          aria-label={`Logs of ${job.name}`}
          className="max-h-[32rem] overflow-auto whitespace-pre-wrap break-all rounded bg-slate-950 p-3 text-xs text-slate-100"
        >
          {job.logs.map((line) => `${line.timestamp} ${line.stream}  ${line.message}`).join("\n")}
        </pre>
      )}
    </Card>
  );
}

/** The FailureReason, then the data log's first lines, which name the refused record's object on AWS as locally. */
export function FailureDetail({ job }: { job: Pick<TransformJobDetail, "failureReason" | "dataLog"> }) {
  return (
    <>
      <p className="break-words">{job.failureReason}</p>
      {job.dataLog.length > 0 && (
        <>
          <p className="mt-2 font-semibold">From the data log</p>
          <pre data-testid="data-log" className="whitespace-pre-wrap break-all font-mono text-xs">
            {job.dataLog.join("\n")}
          </pre>
        </>
      )}
    </>
  );
}
