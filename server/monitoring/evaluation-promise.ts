import type { EvaluationPromise } from "../../contract/endpoints/realised-quality.ts";
import { datasetItems } from "../evaluate/datasets/dataset-store.ts";
import { calibration } from "../evaluate/metrics/calibration.ts";
import type { DecisionOutcome } from "../evaluate/metrics/outcome.ts";
import { findRun, runResults, runTargets } from "../evaluate/runs/run-store.ts";
import type { Store } from "../store/store.ts";
import { decisionKind } from "./capture-record.ts";
import { endpointBaselines } from "./drift-store.ts";
import { accuracyAtThreshold } from "./realised-quality.ts";

/** The evaluation run a kind's drift baseline was set from (drift-store writes its source as `evaluation run <id>`). */
export async function baselineRuns(store: Store, endpointName: string): Promise<Map<string, string>> {
  const runs = new Map<string, string>();
  for (const baseline of await endpointBaselines(store, endpointName)) {
    const runId = /^evaluation run (.+)$/.exec(baseline.source)?.[1];
    if (runId) runs.set(baseline.kind, runId);
  }
  return runs;
}

/**
 * What an evaluation run measured on its items of one decision kind, scored by `endpointName` (or the run's first
 * endpoint): accuracy, accuracy and coverage at the threshold, and ECE. Null when the run is gone or scored none.
 */
export async function evaluationPromise(
  store: Store,
  endpointName: string,
  kind: string,
  runId: string,
  threshold: number,
): Promise<EvaluationPromise | null> {
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
