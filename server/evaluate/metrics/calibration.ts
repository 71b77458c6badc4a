import type { Calibration } from "../../../contract/evaluate/metrics.ts";
import { confidence, type DecisionOutcome, isCorrect, isScored } from "./outcome.ts";

/** Reliability bins a calibration is read in unless another count is asked for. */
export const CALIBRATION_BINS = 10;

/** The equal-width bin a confidence falls in (1 falls in the last). */
export function confidenceBin(confidence: number, binCount = CALIBRATION_BINS): number {
  return Math.min(binCount - 1, Math.max(0, Math.floor(confidence * binCount)));
}

/** What one bin holds: its scored decisions, the sum of their confidences, and how many were right. */
export interface BinSums {
  count: number;
  confidence: number;
  correct: number;
}

/** `binCount` bins holding nothing yet. */
export function emptyBinSums(binCount = CALIBRATION_BINS): BinSums[] {
  return Array.from({ length: binCount }, () => ({ count: 0, confidence: 0, correct: 0 }));
}

/** The reliability diagram and ECE from each bin's sums, bins in order. */
export function calibrationFromBins(sums: readonly BinSums[]): Calibration {
  const binCount = sums.length;
  const scored = sums.reduce((total, sum) => total + sum.count, 0);
  let ece = 0;
  const bins = sums.map((sum, i) => {
    const meanConfidence = sum.count === 0 ? null : sum.confidence / sum.count;
    const binAccuracy = sum.count === 0 ? null : sum.correct / sum.count;
    if (meanConfidence !== null && binAccuracy !== null) {
      ece += (sum.count / scored) * Math.abs(binAccuracy - meanConfidence);
    }
    return { lower: i / binCount, upper: (i + 1) / binCount, count: sum.count, meanConfidence, accuracy: binAccuracy };
  });
  return { ece: scored === 0 ? null : ece, bins };
}

/** Equal-width reliability bins over the chosen option's probability (the confidence). */
export function calibration(outcomes: readonly DecisionOutcome[], binCount = CALIBRATION_BINS): Calibration {
  const sums = emptyBinSums(binCount);
  for (const outcome of outcomes.filter(isScored)) {
    const c = confidence(outcome);
    const bin = sums[confidenceBin(c, binCount)] as BinSums;
    bin.count += 1;
    bin.confidence += c;
    bin.correct += isCorrect(outcome) ? 1 : 0;
  }
  return calibrationFromBins(sums);
}
