import { softmax } from "@decision-console/adapter/contract";
import { HELD_OUT_MIN_ITEMS_PER_HALF, type TemperatureFit } from "../../../contract/evaluate/metrics.ts";
import { calibration } from "./calibration.ts";
import type { DecisionOutcome, ScoredOutcome } from "./outcome.ts";
import { isScored } from "./outcome.ts";

/** Option logits; when only probabilities came back, their logs (softmax is unchanged by a constant shift). */
export function logitsOf(outcome: ScoredOutcome): number[] {
  if (outcome.logits && outcome.logits.length === outcome.optionIds.length) return [...outcome.logits];
  return outcome.probabilities.map((p) => Math.log(Math.max(p, 1e-300)));
}

interface FitItem {
  logits: number[];
  answerIndex: number;
}

/** Mean log-loss of softmax(logits / T); written without per-item arrays, as a fit evaluates it some 120 times. */
function meanNegativeLogLikelihood(items: readonly FitItem[], temperature: number): number {
  let sum = 0;
  for (const item of items) {
    const { logits } = item;
    let max = Number.NEGATIVE_INFINITY;
    for (const z of logits) max = Math.max(max, z / temperature);
    let exponents = 0;
    for (const z of logits) exponents += Math.exp(z / temperature - max);
    sum += max + Math.log(exponents) - (logits[item.answerIndex] as number) / temperature;
  }
  return sum / items.length;
}

export const TEMPERATURE_RANGE = { min: 0.05, max: 20 } as const;

/** Golden-section search over log T for the T that minimises the items' mean log-loss. */
function bestTemperature(items: readonly FitItem[]): number {
  const loss = (logT: number) => meanNegativeLogLikelihood(items, Math.exp(logT));
  const ratio = (Math.sqrt(5) - 1) / 2;
  let low = Math.log(TEMPERATURE_RANGE.min);
  let high = Math.log(TEMPERATURE_RANGE.max);
  let c = high - ratio * (high - low);
  let d = low + ratio * (high - low);
  let lossC = loss(c);
  let lossD = loss(d);
  while (high - low > 1e-7) {
    if (lossC <= lossD) {
      high = d;
      d = c;
      lossD = lossC;
      c = high - ratio * (high - low);
      lossC = loss(c);
    } else {
      low = c;
      c = d;
      lossC = lossD;
      d = low + ratio * (high - low);
      lossD = loss(d);
    }
  }
  return Math.exp((low + high) / 2);
}

interface Labelled {
  outcome: ScoredOutcome;
  item: FitItem;
}

/**
 * Two folds over alternate items: each half is rescaled with the temperature fitted on the other half, and the
 * held-out figures are pooled over both halves, so every item is judged by a temperature that never saw it.
 */
function heldOutCheck(labelled: readonly Labelled[], binCount: number): TemperatureFit["heldOut"] {
  const halves = [labelled.filter((_, i) => i % 2 === 0), labelled.filter((_, i) => i % 2 === 1)];
  if (halves.some((half) => half.length < HELD_OUT_MIN_ITEMS_PER_HALF)) return null;
  const judged = halves.flatMap((half, index) => {
    const other = halves[1 - index] as Labelled[];
    const temperature = bestTemperature(other.map((entry) => entry.item));
    return half.map((entry) => ({ ...entry, temperature }));
  });
  const lossBefore = judged.reduce((sum, entry) => sum + meanNegativeLogLikelihood([entry.item], 1), 0);
  const lossAfter = judged.reduce((sum, entry) => sum + meanNegativeLogLikelihood([entry.item], entry.temperature), 0);
  const before = judged.map((entry) => entry.outcome);
  const after = judged.map((entry) => ({
    ...entry.outcome,
    probabilities: softmax(entry.item.logits, entry.temperature),
  }));
  const logLossBefore = lossBefore / judged.length;
  const logLossAfter = lossAfter / judged.length;
  const eceBefore = calibration(before, binCount).ece;
  const eceAfter = calibration(after, binCount).ece;
  const improves = logLossAfter < logLossBefore && eceBefore !== null && eceAfter !== null && eceAfter <= eceBefore;
  return { items: judged.length, logLossBefore, logLossAfter, eceBefore, eceAfter, improves };
}

/**
 * The temperature T that minimises the mean log-loss of softmax(logits / T). The loss is convex in 1/T, so
 * it is unimodal in log T and a golden-section search over log T finds the minimum. Null with no scored item
 * whose answer is one of its options.
 */
export function fitTemperature(outcomes: readonly DecisionOutcome[], binCount = 10): TemperatureFit | null {
  const scored = outcomes.filter(isScored);
  const labelled: Labelled[] = [];
  for (const outcome of scored) {
    const answerIndex = outcome.optionIds.indexOf(outcome.answer);
    if (answerIndex >= 0) labelled.push({ outcome, item: { logits: logitsOf(outcome), answerIndex } });
  }
  const items = labelled.map((entry) => entry.item);
  if (items.length === 0) return null;
  const temperature = bestTemperature(items);
  const nearLimit = (limit: number) => Math.abs(Math.log(temperature) - Math.log(limit)) < 1e-4;
  const rescaled = scored.map((outcome) => ({ ...outcome, probabilities: softmax(logitsOf(outcome), temperature) }));
  return {
    temperature,
    logLossBefore: meanNegativeLogLikelihood(items, 1),
    logLossAfter: meanNegativeLogLikelihood(items, temperature),
    eceBefore: calibration(scored, binCount).ece,
    eceAfter: calibration(rescaled, binCount).ece,
    items: items.length,
    atLimit: nearLimit(TEMPERATURE_RANGE.max) ? "highest" : nearLimit(TEMPERATURE_RANGE.min) ? "lowest" : null,
    heldOut: heldOutCheck(labelled, binCount),
  };
}
