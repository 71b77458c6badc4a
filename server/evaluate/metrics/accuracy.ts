import type { AccuracyCell } from "../../../contract/evaluate/metrics.ts";
import { type DecisionOutcome, isCorrect, isScored } from "./outcome.ts";

/**
 * Accuracy over the items answered, with the items that failed counted beside it: a busy or unreachable endpoint
 * says nothing about the model's answers, so it must not read as wrong answers.
 */
export function accuracy(outcomes: readonly DecisionOutcome[]): AccuracyCell {
  const correct = outcomes.filter(isCorrect).length;
  const answered = outcomes.filter(isScored).length;
  return {
    correct,
    answered,
    failed: outcomes.length - answered,
    total: outcomes.length,
    accuracy: answered === 0 ? null : correct / answered,
  };
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
