import { brierTerm } from "../evaluate/metrics/brier.ts";
import { confidenceBin } from "../evaluate/metrics/calibration.ts";
import { confidence, isCorrect, isScored } from "../evaluate/metrics/outcome.ts";
import type { ConsoleTables } from "../store/schema.ts";

/**
 * What a label says of its decision, worked out once as it is stored, so realised quality sums columns in the store
 * instead of reading every label's probabilities on each view (ground_truth_labels, migration 65).
 */
export type LabelFigures = Pick<
  ConsoleTables["ground_truth_labels"],
  "top_probability" | "correct" | "brier" | "confidence_bin" | "delay_ms" | "decided_hour"
>;

export const HOUR_MS = 3_600_000;

export function labelFigures(input: {
  options: readonly string[];
  probabilities: readonly number[];
  label: string;
  atMs: number;
  labelledAtMs: number;
}): LabelFigures {
  const outcome = { itemId: "", optionIds: input.options, answer: input.label, probabilities: input.probabilities };
  const scored = isScored(outcome);
  return {
    top_probability: input.probabilities.length === 0 ? null : Math.max(...input.probabilities),
    correct: isCorrect(outcome) ? 1 : 0,
    brier: scored ? brierTerm(outcome) : null,
    confidence_bin: scored ? confidenceBin(confidence(outcome)) : null,
    delay_ms: Math.max(0, input.labelledAtMs - input.atMs),
    decided_hour: Math.floor(input.atMs / HOUR_MS),
  };
}
