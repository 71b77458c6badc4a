/**
 * What one evaluated decision produced, as the metric functions see it. `probabilities` and `logits` follow
 * `optionIds` order; both are null when the endpoint returned no scores (an error).
 */
export interface DecisionOutcome {
  itemId: string;
  optionIds: readonly string[];
  answer: string;
  probabilities: readonly number[] | null;
  logits?: readonly number[] | null;
  latencyMs?: number | null;
  errorKind?: string | null;
  errorMessage?: string | null;
  category?: string | null;
  tier?: string | null;
}

export interface ScoredOutcome extends DecisionOutcome {
  probabilities: readonly number[];
}

export function isScored(outcome: DecisionOutcome): outcome is ScoredOutcome {
  return outcome.probabilities !== null && outcome.probabilities.length === outcome.optionIds.length;
}

/**
 * The chosen option: the highest probability; a tie goes to the option listed first, so the choice never
 * depends on floating-point noise in the order of evaluation.
 */
export function chosenIndex(probabilities: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < probabilities.length; i++) {
    if ((probabilities[i] as number) > (probabilities[best] as number)) best = i;
  }
  return best;
}

export function chosenOption(outcome: ScoredOutcome): string {
  return outcome.optionIds[chosenIndex(outcome.probabilities)] as string;
}

export function confidence(outcome: ScoredOutcome): number {
  return outcome.probabilities[chosenIndex(outcome.probabilities)] as number;
}

export function isCorrect(outcome: DecisionOutcome): boolean {
  return isScored(outcome) && chosenOption(outcome) === outcome.answer;
}
