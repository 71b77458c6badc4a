import type { Calibration } from "../../../contract/evaluate/metrics.ts";
import { confidence, type DecisionOutcome, isCorrect, isScored } from "./outcome.ts";

/** Equal-width reliability bins over the chosen option's probability (the confidence). */
export function calibration(outcomes: readonly DecisionOutcome[], binCount = 10): Calibration {
  const scored = outcomes.filter(isScored);
  const sums = Array.from({ length: binCount }, () => ({ count: 0, confidence: 0, correct: 0 }));
  for (const outcome of scored) {
    const c = confidence(outcome);
    const bin = sums[Math.min(binCount - 1, Math.max(0, Math.floor(c * binCount)))] as (typeof sums)[number];
    bin.count += 1;
    bin.confidence += c;
    bin.correct += isCorrect(outcome) ? 1 : 0;
  }
  let ece = 0;
  const bins = sums.map((sum, i) => {
    const meanConfidence = sum.count === 0 ? null : sum.confidence / sum.count;
    const binAccuracy = sum.count === 0 ? null : sum.correct / sum.count;
    if (meanConfidence !== null && binAccuracy !== null) {
      ece += (sum.count / scored.length) * Math.abs(binAccuracy - meanConfidence);
    }
    return { lower: i / binCount, upper: (i + 1) / binCount, count: sum.count, meanConfidence, accuracy: binAccuracy };
  });
  return { ece: scored.length === 0 ? null : ece, bins };
}
