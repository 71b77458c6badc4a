import type { AccuracyCell } from "../../../contract/evaluate/metrics.ts";
import { type DecisionOutcome, isCorrect } from "./outcome.ts";

/** An item that failed (no probabilities) counts as wrong: accuracy is correct over all items asked. */
export function accuracy(outcomes: readonly DecisionOutcome[]): AccuracyCell {
  const correct = outcomes.filter(isCorrect).length;
  return { correct, total: outcomes.length, accuracy: outcomes.length === 0 ? null : correct / outcomes.length };
}

/** Accuracy per value of a grouping field (category, tier); items without a value are left out. */
export function accuracyBy(
  outcomes: readonly DecisionOutcome[],
  key: (outcome: DecisionOutcome) => string | null | undefined,
): Record<string, AccuracyCell> {
  const groups = new Map<string, DecisionOutcome[]>();
  for (const outcome of outcomes) {
    const value = key(outcome);
    if (value === null || value === undefined || value === "") continue;
    const group = groups.get(value) ?? [];
    group.push(outcome);
    groups.set(value, group);
  }
  return Object.fromEntries([...groups.keys()].sort().map((value) => [value, accuracy(groups.get(value) ?? [])]));
}
