import { type DecisionOutcome, isScored, type ScoredOutcome } from "./outcome.ts";

/** One scored decision's part of the Brier score: sum_k (p_k - y_k)^2, where y is the one-hot answer. */
export function brierTerm(outcome: ScoredOutcome): number {
  let sum = 0;
  outcome.probabilities.forEach((p, k) => {
    const y = outcome.optionIds[k] === outcome.answer ? 1 : 0;
    sum += (p - y) ** 2;
  });
  return sum;
}

/**
 * Multi-class Brier score: the mean over scored items of sum_k (p_k - y_k)^2, where y is the one-hot answer.
 * 0 is perfect, 2 is a confident wrong answer. Null when nothing was scored.
 */
export function brierScore(outcomes: readonly DecisionOutcome[]): number | null {
  const scored = outcomes.filter(isScored);
  if (scored.length === 0) return null;
  return scored.reduce((sum, outcome) => sum + brierTerm(outcome), 0) / scored.length;
}
