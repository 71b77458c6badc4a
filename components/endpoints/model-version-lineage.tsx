"use client";

import Link from "next/link";
import { versionOfArn } from "@/contract/models/version-of-arn.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { buildPage } from "../builds/build-queries.ts";
import { decimal, percent } from "../evaluate/format.ts";
import { useModelVersion, versionPage } from "../models/model-queries.ts";
import { approvalLabel, approvalTone } from "../models/version-format.ts";
import { Badge } from "../ui/badge.tsx";
import { Card } from "../ui/card.tsx";

/**
 * Where what the endpoint serves came from: its Model Registry version, the version's approval, the evaluation it
 * was approved on, the builds, source revision and model pins.
 */
export function ModelVersionLineage({ arn }: { arn: string | null }) {
  const named = arn ? versionOfArn(arn) : null;
  const version = useModelVersion(named?.group ?? "", named?.version ?? 0, named !== null);
  if (!arn || !named) {
    return (
      <Card title="Model version">
        <p className="text-sm text-slate-700">
          Not from the Model Registry: the image and artifact were chosen by hand.{" "}
          <Link className="text-blue-800 underline" href="/models">
            Register and approve a version
          </Link>{" "}
          to deploy with its lineage.
        </p>
      </Card>
    );
  }
  if (version.isPending)
    return (
      <Card title="Model version">
        Loading {named.group} v{named.version}…
      </Card>
    );
  if (version.error || !version.data) {
    return (
      <Card title="Model version">
        <p className="break-all font-mono text-xs">{arn}</p>
        <ErrorAlert title="Could not read the version" error={version.error} />
      </Card>
    );
  }
  const data = version.data;
  const evaluation = data.evaluation;
  return (
    <Card title="Model version">
      <dl className="flex flex-col gap-2 text-sm" data-testid="endpoint-lineage">
        <div>
          <dt className="text-slate-700">Version</dt>
          <dd className="flex flex-wrap items-center gap-2">
            <Link className="font-medium text-blue-800 underline" href={versionPage(data.group, data.version)}>
              {data.group} v{data.version}
            </Link>
            <Badge tone={approvalTone(data.status)}>{approvalLabel(data.status)}</Badge>
          </dd>
        </div>
        {data.approvalNote && (
          <div>
            <dt className="text-slate-700">Approval note</dt>
            <dd>“{data.approvalNote}”</dd>
          </div>
        )}
        <div>
          <dt className="text-slate-700">Evaluation</dt>
          <dd>
            {evaluation ? (
              <Link className="text-blue-800 underline" href={`/evaluate/${encodeURIComponent(evaluation.runId)}`}>
                {percent(evaluation.accuracy)} on {evaluation.datasetName} ({evaluation.items} items), Brier{" "}
                {decimal(evaluation.brier)}, ECE {decimal(evaluation.ece)}
              </Link>
            ) : (
              "none attached"
            )}
          </dd>
        </div>
        <div>
          <dt className="text-slate-700">Model build</dt>
          <dd className="break-all font-mono text-xs">
            {data.build.modelBuildId ? (
              <Link className="text-blue-800 underline" href={buildPage(data.build.modelBuildId)}>
                {data.build.modelBuildId}
              </Link>
            ) : (
              "—"
            )}
          </dd>
        </div>
        <div>
          <dt className="text-slate-700">Source revision</dt>
          <dd className="break-all font-mono text-xs">{data.build.sourceRevision ?? "—"}</dd>
        </div>
        <div>
          <dt className="text-slate-700">Model pins</dt>
          <dd className="break-all font-mono text-xs">
            {data.pins.ggufRepo ? `${data.pins.ggufRepo}@${data.pins.ggufRevision} ${data.pins.ggufFile}` : "—"}
            {data.pins.tokenizerRepo ? `; tokenizer ${data.pins.tokenizerRepo}@${data.pins.tokenizerRevision}` : ""}
          </dd>
        </div>
      </dl>
    </Card>
  );
}
