import type { EvaluationSummary } from "@/contract/evaluate/evaluations.ts";
import type { ApprovalStatus, ModelVersion } from "@/contract/models/model-registry.ts";
import { percent } from "../evaluate/format.ts";
import type { Tone } from "../ui/badge.tsx";

export function approvalTone(status: ApprovalStatus): Tone {
  if (status === "Approved") return "success";
  if (status === "Rejected") return "danger";
  return "warning";
}

export function approvalLabel(status: ApprovalStatus): string {
  return status === "PendingManualApproval" ? "Pending approval" : status;
}

/** How the deploy and update forms list an Approved version. */
export function versionLabel(version: ModelVersion): string {
  const accuracy = version.evaluation?.accuracy;
  const judged =
    accuracy === null || accuracy === undefined
      ? ""
      : ` · ${(accuracy * 100).toFixed(1)}% on ${version.evaluation?.datasetName}`;
  return `${version.group} v${version.version}${judged}`;
}

/**
 * Whether two versions' evaluations can be compared: the same items (dataset sha256), not merely the same name.
 * Null when either has no evaluation.
 */
export function sameDataset(a: ModelVersion, b: ModelVersion): boolean | null {
  if (!a.evaluation || !b.evaluation) return null;
  return a.evaluation.datasetSha256 === b.evaluation.datasetSha256;
}

/** The deploy page with an Approved version picked. */
export function deployVersionHref(version: ModelVersion): string {
  return `/deploy?${new URLSearchParams({ version: version.arn })}`;
}

/** How the registry's forms list a completed evaluation run: its dataset, what it ran on, each side's accuracy. */
export function runOptionLabel(run: EvaluationSummary): string {
  const accuracy = run.accuracy.map((cell) => percent(cell.accuracy)).join(" / ");
  return `${run.datasetName ?? run.datasetId} on ${run.endpoints.join(", ")} · ${accuracy}`;
}

const digestOf = (value: string | null): string | null =>
  value?.includes("sha256:") ? value.slice(value.lastIndexOf("sha256:")) : null;

/**
 * The endpoints that serve a model artifact with an image now: the same image digest, and the same model sha256 or
 * none recorded (deployed without one: the registry compares its model data when a run of it is attached).
 */
export function endpointsServing(
  endpoints: readonly { name: string; modelSha256: string | null; imageDigest: string | null }[],
  artifact: { modelSha256: string | null; imageUri: string | null },
): Set<string> {
  const image = digestOf(artifact.imageUri);
  return new Set(
    endpoints
      .filter(
        (endpoint) =>
          artifact.modelSha256 !== null &&
          (endpoint.modelSha256 === null || endpoint.modelSha256 === artifact.modelSha256) &&
          image !== null &&
          digestOf(endpoint.imageDigest) === image,
      )
      .map((endpoint) => endpoint.name),
  );
}

/**
 * The completed runs a version can take as its evaluation: those that scored an endpoint serving its artifact and
 * image now (the registry checks the same), and batch runs, whose model the registry checks when one is attached.
 */
export function runsOfServingEndpoints(
  runs: readonly EvaluationSummary[],
  serving: ReadonlySet<string>,
): EvaluationSummary[] {
  return runs.filter(
    (run) =>
      run.status === "completed" && (run.batch !== null || run.endpoints.some((endpoint) => serving.has(endpoint))),
  );
}
