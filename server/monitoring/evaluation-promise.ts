import type { EvaluationBasis } from "../../contract/endpoints/evaluation-link.ts";
import type { EvaluationPromise } from "../../contract/endpoints/realised-quality.ts";
import { newestEvaluationLink } from "../endpoints/evaluation-link.ts";
import { datasetItems } from "../evaluate/datasets/dataset-store.ts";
import { calibration } from "../evaluate/metrics/calibration.ts";
import type { DecisionOutcome } from "../evaluate/metrics/outcome.ts";
import { findRun, runResults, runTargets } from "../evaluate/runs/run-store.ts";
import type { Store } from "../store/store.ts";
import { decisionKind } from "./capture-record.ts";
import { endpointBaselines } from "./drift-store.ts";
import { accuracyAtThreshold } from "./realised-quality.ts";

/** A run realised figures may stand beside, and why. */
export interface ComparedRun {
  runId: string;
  basis: EvaluationBasis;
}

/** The evaluation run a kind's drift baseline was set from (drift-store writes its source as `evaluation run <id>`). */
async function baselineRuns(store: Store, endpointName: string): Promise<Map<string, ComparedRun>> {
  const runs = new Map<string, ComparedRun>();
  for (const baseline of await endpointBaselines(store, endpointName)) {
    const runId = /^evaluation run (.+)$/.exec(baseline.source)?.[1];
    if (runId)
      runs.set(baseline.kind, { runId, basis: { why: "drift baseline", by: baseline.setBy, at: baseline.setAt } });
  }
  return runs;
}

/**
 * The runs a kind's realised figures are compared with, in order: the evaluation the endpoint was last linked to
 * (deployed, promoted or updated with the registry version it serves, `servedVersionArn`, or chosen), then the run
 * the kind's drift baseline was set from.
 */
export async function comparedRuns(
  store: Store,
  endpointName: string,
  servedVersionArn?: string | null,
): Promise<(kind: string) => ComparedRun[]> {
  const link = await newestEvaluationLink(store, endpointName, servedVersionArn);
  const baselines = await baselineRuns(store, endpointName);
  const linked: ComparedRun[] = link ? [{ runId: link.runId, basis: { why: link.why, by: link.by, at: link.at } }] : [];
  return (kind) => {
    const baseline = baselines.get(kind);
    return baseline ? [...linked, baseline] : linked;
  };
}

/** What the first of `runs` that scored the kind measured, or null when none did. */
export async function firstEvaluationPromise(
  store: Store,
  endpointName: string,
  kind: string,
  runs: readonly ComparedRun[],
  threshold: number,
): Promise<EvaluationPromise | null> {
  for (const { runId, basis } of runs) {
    const promise = await evaluationPromise(store, endpointName, kind, runId, threshold);
    if (promise) return { ...promise, basis };
  }
  return null;
}

/**
 * What an evaluation run measured on its items of one decision kind, scored by `endpointName` (or the run's first
 * endpoint): accuracy, accuracy and coverage at the threshold, and ECE. Null when the run is gone or scored none.
 */
async function evaluationPromise(
  store: Store,
  endpointName: string,
  kind: string,
  runId: string,
  threshold: number,
): Promise<Omit<EvaluationPromise, "basis"> | null> {
  const run = await findRun(store, runId);
  if (!run) return null;
  const slot = Math.max(0, (await runTargets(store, runId)).indexOf(endpointName));
  const items = new Map((await datasetItems(store, run.dataset_id)).map((item) => [item.position, item]));
  const outcomes: DecisionOutcome[] = [];
  for (const result of await runResults(store, runId)) {
    const item = items.get(result.position);
    if (result.slot !== slot || !item || !result.optionIds || !result.probabilities) continue;
    if (decisionKind(item.decision.question, result.optionIds) !== kind) continue;
    outcomes.push({
      itemId: result.itemId,
      optionIds: result.optionIds,
      answer: item.answer,
      probabilities: result.probabilities,
    });
  }
  if (outcomes.length === 0) return null;
  const figures = accuracyAtThreshold(outcomes, threshold);
  return { runId, ...figures, ece: calibration(outcomes).ece };
}
