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

/**
 * The accuracy of picking an option at random over the same answered items: the mean of 1 / options. Beside the
 * accuracy it says how much the model adds (77% of two-option decisions is less than 77% of sixteen-option ones).
 */
export function chanceAccuracy(outcomes: readonly DecisionOutcome[]): number | null {
  const answered = outcomes.filter(isScored);
  if (answered.length === 0) return null;
  return answered.reduce((total, outcome) => total + 1 / outcome.optionIds.length, 0) / answered.length;
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
