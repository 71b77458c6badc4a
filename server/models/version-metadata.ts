import type { ModelPins, VersionEvaluation } from "../../contract/models/model-registry.ts";

/**
 * What the console records on a model version, in its CustomerMetadataProperties: the builds it came from, the
 * artifact's sha256 and size, the packaged pins and the evaluation it was judged on. SageMaker allows 50 entries,
 * keys of 1-128 and values of 1-256 characters from letters, digits, spaces and `_.:/=+-@`.
 */
const KEYS = {
  modelBuildId: "decision-console:model-build",
  imageBuildId: "decision-console:image-build",
  sourceRevision: "decision-console:source-revision",
  modelSha256: "decision-console:model-sha256",
  modelBytes: "decision-console:model-bytes",
  ggufRepo: "decision-console:gguf-repo",
  ggufRevision: "decision-console:gguf-revision",
  ggufFile: "decision-console:gguf-file",
  tokenizerRepo: "decision-console:tokenizer-repo",
  tokenizerRevision: "decision-console:tokenizer-revision",
} as const;

const EVALUATION_KEYS = {
  runId: "decision-console:evaluation-run",
  target: "decision-console:evaluation-target",
  datasetName: "decision-console:evaluation-dataset",
  datasetSha256: "decision-console:evaluation-dataset-sha256",
  items: "decision-console:evaluation-items",
  accuracy: "decision-console:evaluation-accuracy",
  brier: "decision-console:evaluation-brier",
  ece: "decision-console:evaluation-ece",
  p50Ms: "decision-console:evaluation-p50-ms",
  p95Ms: "decision-console:evaluation-p95-ms",
  errors: "decision-console:evaluation-errors",
  reportUrl: "decision-console:evaluation-report",
  attachedAt: "decision-console:evaluation-attached-at",
} as const satisfies Record<keyof VersionEvaluation, string>;

/** Every key of an attached evaluation: what attaching another one replaces. */
export const evaluationMetadataKeys: readonly string[] = Object.values(EVALUATION_KEYS);

export interface VersionOrigin {
  modelBuildId: string;
  imageBuildId?: string;
  sourceRevision?: string;
  modelSha256: string;
  modelBytes?: number;
  pins: ModelPins;
}

const MAX_VALUE = 256;

/** A value SageMaker accepts: characters outside its set become `_`, and it is cut at 256 characters. */
export function metadataValue(value: string): string {
  return value.replace(/[^\p{L}\p{Z}\p{N}_.:/=+\-@]/gu, "_").slice(0, MAX_VALUE);
}

function entries(pairs: [string, string | number | null | undefined][]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of pairs) {
    if (value === null || value === undefined || value === "") continue;
    out[key] = metadataValue(String(value));
  }
  return out;
}

export function originMetadata(origin: VersionOrigin): Record<string, string> {
  return entries([
    [KEYS.modelBuildId, origin.modelBuildId],
    [KEYS.imageBuildId, origin.imageBuildId],
    [KEYS.sourceRevision, origin.sourceRevision],
    [KEYS.modelSha256, origin.modelSha256],
    [KEYS.modelBytes, origin.modelBytes],
    [KEYS.ggufRepo, origin.pins.ggufRepo],
    [KEYS.ggufRevision, origin.pins.ggufRevision],
    [KEYS.ggufFile, origin.pins.ggufFile],
    [KEYS.tokenizerRepo, origin.pins.tokenizerRepo],
    [KEYS.tokenizerRevision, origin.pins.tokenizerRevision],
  ]);
}

export function evaluationMetadata(evaluation: VersionEvaluation): Record<string, string> {
  return entries(
    (Object.keys(EVALUATION_KEYS) as (keyof VersionEvaluation)[]).map((field) => [
      EVALUATION_KEYS[field],
      evaluation[field],
    ]),
  );
}

const text = (metadata: Record<string, string>, key: string) => metadata[key] ?? null;

function num(metadata: Record<string, string>, key: string): number | null {
  const value = metadata[key];
  if (value === undefined) return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

export function originOf(metadata: Record<string, string>) {
  return {
    build: {
      modelBuildId: text(metadata, KEYS.modelBuildId),
      imageBuildId: text(metadata, KEYS.imageBuildId),
      sourceRevision: text(metadata, KEYS.sourceRevision),
    },
    modelSha256: text(metadata, KEYS.modelSha256),
    modelBytes: num(metadata, KEYS.modelBytes),
    pins: {
      ggufRepo: text(metadata, KEYS.ggufRepo),
      ggufRevision: text(metadata, KEYS.ggufRevision),
      ggufFile: text(metadata, KEYS.ggufFile),
      tokenizerRepo: text(metadata, KEYS.tokenizerRepo),
      tokenizerRevision: text(metadata, KEYS.tokenizerRevision),
    },
  };
}

/** The attached evaluation, or null when the version has none (or only part of one: an entry was removed). */
export function evaluationOf(metadata: Record<string, string>): VersionEvaluation | null {
  const runId = text(metadata, EVALUATION_KEYS.runId);
  const reportUrl = text(metadata, EVALUATION_KEYS.reportUrl);
  const attachedAt = text(metadata, EVALUATION_KEYS.attachedAt);
  if (!runId || !reportUrl || !attachedAt) return null;
  return {
    runId,
    target: text(metadata, EVALUATION_KEYS.target) ?? "",
    datasetName: text(metadata, EVALUATION_KEYS.datasetName) ?? "",
    datasetSha256: text(metadata, EVALUATION_KEYS.datasetSha256) ?? "",
    items: num(metadata, EVALUATION_KEYS.items) ?? 0,
    accuracy: num(metadata, EVALUATION_KEYS.accuracy),
    brier: num(metadata, EVALUATION_KEYS.brier),
    ece: num(metadata, EVALUATION_KEYS.ece),
    p50Ms: num(metadata, EVALUATION_KEYS.p50Ms),
    p95Ms: num(metadata, EVALUATION_KEYS.p95Ms),
    errors: num(metadata, EVALUATION_KEYS.errors) ?? 0,
    reportUrl,
    attachedAt,
  };
}
