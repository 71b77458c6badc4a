import { createHash } from "node:crypto";
import { PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { DescribeModelCommand, type DescribeModelOutput, type SageMakerClient } from "@aws-sdk/client-sagemaker";
import type { VersionEvaluation } from "../../contract/models/model-registry.ts";
import { ARTIFACT_PREFIXES } from "../../contract/stack/console-contract.ts";
import { awsCall } from "../aws/errors.ts";
import { loadEndpointResources } from "../endpoints/resources.ts";
import type { EndpointSummaryCache } from "../endpoints/summary-cache.ts";
import { digestOf, modelDataUrlOf } from "../endpoints/view.ts";
import { findDataset, type StoredItem } from "../evaluate/datasets/dataset-store.ts";
import { batchJobOf } from "../evaluate/runs/batch-job-store.ts";
import { outcomesOf } from "../evaluate/runs/outcomes.ts";
import { endpointEvaluations, runData } from "../evaluate/runs/run-view.ts";
import { AppError } from "../http/app-error.ts";
import type { Store } from "../store/store.ts";

/** sha256 over a dataset's items in order (each item's decision, answer, category and tier as JSON, one per line). */
export function datasetSha256(items: readonly StoredItem[]): string {
  const hash = createHash("sha256");
  for (const { decision, answer, category, tier } of items) {
    hash.update(`${JSON.stringify({ decision, answer, category, tier })}\n`);
  }
  return hash.digest("hex");
}

/** What a version serves: the image by digest and the model data. */
export interface ServedArtifact {
  imageUri: string | null;
  modelDataUrl: string | null;
}

/** The same model data: one model.tar.gz, or one uncompressed prefix with or without its trailing slash. */
export function sameModelData(a: string | null, b: string | null): boolean {
  const folder = (url: string) => (url.endsWith(".tar.gz") || url.endsWith("/") ? url : `${url}/`);
  return a !== null && b !== null && folder(a) === folder(b);
}

function servedBy(model: DescribeModelOutput | null): ServedArtifact {
  const container = model?.PrimaryContainer ?? model?.Containers?.[0];
  return { imageUri: container?.Image ?? null, modelDataUrl: modelDataUrlOf(container) };
}

function sameArtifact(a: ServedArtifact, b: ServedArtifact): boolean {
  const digest = digestOf(a.imageUri);
  return digest !== null && digest === digestOf(b.imageUri) && sameModelData(a.modelDataUrl, b.modelDataUrl);
}

export interface EvidenceDeps {
  store: Store;
  sageMaker: SageMakerClient;
  s3: S3Client;
  artifactBucket: string | null;
  endpointSummaries?: EndpointSummaryCache;
}

/** The model each of a run's targets runs now: an endpoint's (through its config), or a batch run's model. */
async function targetsServing(deps: EvidenceDeps, runId: string, targets: string[]) {
  const batch = await batchJobOf(deps.store, runId);
  return Promise.all(
    targets.map(async (target) => {
      try {
        const model = batch
          ? await deps.sageMaker.send(new DescribeModelCommand({ ModelName: batch.model_name }))
          : (await loadEndpointResources(deps.sageMaker, target, deps.endpointSummaries)).model;
        return { target, served: servedBy(model) };
      } catch {
        return { target, served: null };
      }
    }),
  );
}

/**
 * The evaluation of `runId` as evidence for a version: the run has completed, and one of its sides (an endpoint, or
 * the batch run's model) serves the version's image digest and model data. Its metrics go into a JSON report in the
 * artifact bucket (`evaluation-reports/<group>/<run>.json`), which the version points at.
 */
export async function evaluationEvidence(
  deps: EvidenceDeps,
  runId: string,
  version: { group: string; served: ServedArtifact },
): Promise<VersionEvaluation> {
  const data = await runData(deps.store, runId);
  if (!data) throw new AppError("not_found", `evaluationId: no evaluation run "${runId}".`);
  if (data.run.status !== "completed") {
    throw new AppError(
      "conflict",
      `evaluationId: run ${runId} is ${data.run.status}; only a completed run can be attached to a version.`,
    );
  }
  if (!deps.artifactBucket) {
    throw new AppError(
      "unavailable",
      "Evaluation reports are kept in the artifact bucket: set CONSOLE_ARTIFACT_BUCKET (the stack's ArtifactBucketName).",
    );
  }
  const serving = await targetsServing(deps, runId, data.targets);
  const slot = serving.findIndex((side) => side.served && sameArtifact(side.served, version.served));
  if (slot < 0) {
    const seen = serving
      .map(({ target, served }) =>
        served
          ? `${target} serves ${served.imageUri ?? "no image"} with ${served.modelDataUrl ?? "no model data"}`
          : `${target} could not be described (deleted?)`,
      )
      .join("; ");
    throw new AppError(
      "conflict",
      `evaluationId: run ${runId} did not evaluate this version's image and model data (${version.served.imageUri} with ${version.served.modelDataUrl}): ${seen}. Evaluate an endpoint that serves them.`,
    );
  }
  const side = endpointEvaluations(data)[slot]!;
  const dataset = await findDataset(deps.store, data.run.dataset_id);
  const { items } = data;
  const metrics = side.metrics;
  const reportKey = `${ARTIFACT_PREFIXES.evaluationReports}${version.group}/${runId}.json`;
  const evaluation: VersionEvaluation = {
    runId,
    target: side.endpointName,
    datasetName: dataset?.name ?? data.run.dataset_id,
    datasetSha256: datasetSha256(items),
    items: items.length,
    accuracy: metrics.accuracy.accuracy,
    brier: metrics.brier,
    ece: metrics.calibration.ece,
    p50Ms: metrics.latency.p50,
    p95Ms: metrics.latency.p95,
    errors: Object.values(metrics.errors).reduce((sum, count) => sum + count, 0),
    reportUrl: `s3://${deps.artifactBucket}/${reportKey}`,
    attachedAt: new Date().toISOString(),
  };
  const report = {
    kind: "decision-console-evaluation-report",
    evaluation,
    run: {
      id: runId,
      createdAt: data.run.created_at,
      finishedAt: data.run.finished_at,
      targetAccuracy: data.run.target_accuracy,
      configuration: side.configuration,
    },
    dataset: {
      id: data.run.dataset_id,
      name: evaluation.datasetName,
      sha256: evaluation.datasetSha256,
      items: items.length,
    },
    served: version.served,
    metrics,
    // Every item's answer from this side, so a CI gate can test a candidate against this version item by item.
    outcomes: outcomesOf(items, data.results, slot),
  };
  const bucket = deps.artifactBucket;
  await awsCall(evaluation.reportUrl, () =>
    deps.s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: reportKey,
        Body: `${JSON.stringify(report, null, 2)}\n`,
        ContentType: "application/json",
      }),
    ),
  );
  return evaluation;
}
