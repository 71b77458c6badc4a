"use client";

import Link from "next/link";
import { useState } from "react";
import { approvalProblem, evaluationProblem } from "@/contract/models/approval.ts";
import type { ModelVersionDetail } from "@/contract/models/model-registry.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { useMe } from "../auth/auth-queries.ts";
import { fileSize } from "../builds/build-format.ts";
import { buildPage } from "../builds/build-queries.ts";
import { useEndpoints } from "../endpoints/endpoint-queries.ts";
import { useEvaluations } from "../evaluate/evaluation-queries.ts";
import { decimal, latency, percent } from "../evaluate/format.ts";
import { Badge } from "../ui/badge.tsx";
import { Button, buttonClasses } from "../ui/button.tsx";
import { Card, PageHeader } from "../ui/card.tsx";
import { SelectField, TextAreaField } from "../ui/field.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { type ApprovalNote, afterRecordedDecision, approvalNoteProblem, blankApprovalNote } from "./approval-note.ts";
import { groupPage, useAttachEvaluation, useDecideApproval, useModelVersion } from "./model-queries.ts";
import {
  approvalLabel,
  approvalTone,
  deployVersionHref,
  endpointsServing,
  runOptionLabel,
  runsOfServingEndpoints,
} from "./version-format.ts";

function Facts({ entries }: { entries: [string, React.ReactNode][] }) {
  return (
    <dl className="flex flex-col gap-1 text-sm">
      {entries.map(([term, value]) => (
        <div key={term}>
          <dt className="text-slate-700">{term}</dt>
          <dd className="break-all font-mono text-xs">{value ?? "—"}</dd>
        </div>
      ))}
    </dl>
  );
}

export function ModelVersionView({ group, version }: { group: string; version: number }) {
  const detail = useModelVersion(group, version);
  const operator = useMe().data?.user?.role === "operator";
  if (detail.isPending) return <p className="text-sm text-slate-700">Loading model version…</p>;
  if (detail.error || !detail.data) {
    return <ErrorAlert title={`Could not load ${group} v${version}`} error={detail.error} />;
  }
  const data = detail.data;
  return (
    <>
      <PageHeader
        title={`${data.group} v${data.version}`}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <Badge tone={approvalTone(data.status)}>{approvalLabel(data.status)}</Badge>
            <span>{data.description ?? "Model version"}</span>
            <Link className="text-blue-800 underline" href={groupPage(data.group)}>
              All versions of {data.group}
            </Link>
          </span>
        }
        actions={
          data.status === "Approved" ? (
            <Link href={deployVersionHref(data)} className={buttonClasses()}>
              Deploy this version
            </Link>
          ) : null
        }
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <ApprovalCard version={data} operator={operator} />
        <EvaluationCard version={data} operator={operator} />
        <Card title="Artifact">
          <Facts
            entries={[
              ["Image", data.imageUri],
              ["Model data", data.modelDataUrl],
              ["Model sha256", data.modelSha256],
              ["Model size", data.modelBytes === null ? null : fileSize(data.modelBytes)],
              ["ARN", data.arn],
            ]}
          />
        </Card>
        <Card title="Lineage">
          <Facts
            entries={[
              [
                "Model build",
                data.build.modelBuildId ? (
                  <Link key="model-build" className="text-blue-800 underline" href={buildPage(data.build.modelBuildId)}>
                    {data.build.modelBuildId}
                  </Link>
                ) : null,
              ],
              [
                "Image build",
                data.build.imageBuildId ? (
                  <Link key="image-build" className="text-blue-800 underline" href={buildPage(data.build.imageBuildId)}>
                    {data.build.imageBuildId}
                  </Link>
                ) : null,
              ],
              ["Source revision", data.build.sourceRevision],
              [
                "GGUF pin",
                data.pins.ggufRepo ? `${data.pins.ggufRepo}@${data.pins.ggufRevision} ${data.pins.ggufFile}` : null,
              ],
              [
                "Tokenizer pin",
                data.pins.tokenizerRepo ? `${data.pins.tokenizerRepo}@${data.pins.tokenizerRevision}` : null,
              ],
            ]}
          />
        </Card>
        <Card title="Serving endpoints">
          {data.endpoints.length > 0 ? (
            <ul className="flex flex-col gap-1 text-sm" aria-label="Endpoints serving this version">
              {data.endpoints.map((name) => (
                <li key={name}>
                  <Link className="font-mono text-blue-800 underline" href={`/endpoints/${encodeURIComponent(name)}`}>
                    {name}
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-700">No endpoint serves this version.</p>
          )}
        </Card>
      </div>
    </>
  );
}

function ApprovalCard({ version, operator }: { version: ModelVersionDetail; operator: boolean }) {
  const [note, setNote] = useState<ApprovalNote>(blankApprovalNote);
  const decide = useDecideApproval(version.group, version.version);
  const hasEvaluation = version.evaluation !== null;
  const approveProblem = approvalProblem(version.status, "Approved", hasEvaluation);
  const rejectProblem = approvalProblem(version.status, "Rejected", hasEvaluation);
  const noteProblem = approvalNoteProblem(note);
  const send = (status: "Approved" | "Rejected") => {
    setNote((current) => ({ ...current, tried: true }));
    if (!note.text.trim()) return;
    decide.mutate({ status, note: note.text.trim() }, { onSuccess: () => setNote(afterRecordedDecision()) });
  };
  return (
    <Card title="Approval">
      <div className="flex flex-col gap-3 text-sm">
        <p>
          <Badge tone={approvalTone(version.status)}>{approvalLabel(version.status)}</Badge>
          {version.updatedAt && (
            <span className="ml-2 text-slate-700">
              changed <Timestamp at={version.updatedAt} />
            </span>
          )}
        </p>
        {version.approvalNote && <p data-testid="approval-note">“{version.approvalNote}”</p>}
        {operator ? (
          <>
            <TextAreaField
              label="Note"
              rows={2}
              value={note.text}
              error={noteProblem}
              onChange={(event) => setNote({ ...note, text: event.target.value })}
              hint="Why you approve or reject it; recorded as the version's ApprovalDescription."
            />
            <div className="flex flex-wrap gap-2">
              <Button disabled={decide.isPending || approveProblem !== null} onClick={() => send("Approved")}>
                Approve
              </Button>
              <Button
                variant="danger"
                disabled={decide.isPending || rejectProblem !== null}
                onClick={() => send("Rejected")}
              >
                Reject
              </Button>
            </div>
            {approveProblem && version.status !== "Approved" && (
              <p className="text-xs text-slate-700">{approveProblem}</p>
            )}
            {decide.error && <ErrorAlert title="Could not record the decision" error={decide.error} />}
          </>
        ) : (
          <p className="text-slate-700">Only operators approve or reject versions.</p>
        )}
      </div>
    </Card>
  );
}

function EvaluationCard({ version, operator }: { version: ModelVersionDetail; operator: boolean }) {
  const evaluation = version.evaluation;
  return (
    <Card title="Evaluation">
      {evaluation ? (
        <div className="flex flex-col gap-3">
          <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-3" data-testid="version-evaluation">
            {(
              [
                ["Dataset", `${evaluation.datasetName} (${evaluation.items})`],
                ["Accuracy", percent(evaluation.accuracy)],
                ["Brier", decimal(evaluation.brier)],
                ["ECE", decimal(evaluation.ece)],
                ["p50 / p95", `${latency(evaluation.p50Ms)} / ${latency(evaluation.p95Ms)}`],
                ["Errors", String(evaluation.errors)],
              ] as const
            ).map(([term, value]) => (
              <div key={term}>
                <dt className="text-slate-700">{term}</dt>
                <dd className="font-medium tabular-nums">{value}</dd>
              </div>
            ))}
          </dl>
          <p className="break-all text-xs text-slate-700">
            {`Run on ${evaluation.target}. Dataset sha256 `}
            <span className="font-mono">{evaluation.datasetSha256}</span>
            {". Report "}
            <span className="font-mono">{evaluation.reportUrl}</span>.
          </p>
          <Link className="text-sm text-blue-800 underline" href={`/evaluate/${encodeURIComponent(evaluation.runId)}`}>
            Open the evaluation run
          </Link>
        </div>
      ) : (
        <p className="text-sm text-slate-700">Not evaluated yet: a version is approved on an attached evaluation.</p>
      )}
      {operator && evaluationProblem(version.status) === null && <AttachEvaluation version={version} />}
    </Card>
  );
}

function AttachEvaluation({ version }: { version: ModelVersionDetail }) {
  const runs = useEvaluations();
  const attach = useAttachEvaluation(version.group, version.version);
  const [runId, setRunId] = useState("");
  const endpoints = useEndpoints();
  // Endpoints deployed from the version, and any other serving its image and model data (a candidate evaluated
  // before it was registered).
  const serving = new Set([
    ...version.endpoints,
    ...endpointsServing(endpoints.data?.endpoints ?? [], {
      modelSha256: version.modelSha256,
      imageUri: version.imageUri,
    }),
  ]);
  const completed = runsOfServingEndpoints(runs.data?.evaluations ?? [], serving);
  return (
    <form
      className="mt-3 flex flex-col gap-2 border-t border-slate-200 pt-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (runId) attach.mutate(runId, { onSuccess: () => setRunId("") });
      }}
    >
      <SelectField
        label="Attach an evaluation run"
        value={runId}
        onChange={(event) => setRunId(event.target.value)}
        hint="A completed run of an endpoint that serves this version's image and model data."
      >
        <option value="">{runs.isPending ? "Loading runs…" : "Choose a completed run"}</option>
        {completed.map((run) => (
          <option key={run.id} value={run.id}>
            {runOptionLabel(run)}
          </option>
        ))}
      </SelectField>
      <div>
        <Button type="submit" variant="secondary" disabled={!runId || attach.isPending}>
          {attach.isPending ? "Attaching…" : "Attach evaluation"}
        </Button>
      </div>
      {attach.error && <ErrorAlert title="Could not attach the evaluation" error={attach.error} />}
    </form>
  );
}
