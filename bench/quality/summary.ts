import { softmax } from "../../adapter/src/contract/softmax.ts";
import type { AccuracyCell } from "../../contract/evaluate/metrics.ts";
import { thresholdForAccuracy } from "../../contract/evaluate/threshold.ts";
import { accuracy, accuracyBy } from "../../server/evaluate/metrics/accuracy.ts";
import { brierScore } from "../../server/evaluate/metrics/brier.ts";
import { calibration } from "../../server/evaluate/metrics/calibration.ts";
import { coverageCurve } from "../../server/evaluate/metrics/coverage.ts";
import { chosenIndex, type DecisionOutcome, isScored } from "../../server/evaluate/metrics/outcome.ts";
import { fitTemperature, logitsOf } from "../../server/evaluate/metrics/temperature.ts";
import type { QualityItem, VariantResult } from "./run.ts";

/**
 * The summary of bench/out/quality.json, computed from its items alone with the console's own metric code
 * (server/evaluate/metrics): anyone can recompute it from the file (`tsx bench/quality/check.ts`).
 */

export const THRESHOLDS = [0.5, 0.6, 0.7, 0.8, 0.9] as const;
export const TARGET_ACCURACIES = [0.6, 0.7, 0.8, 0.9] as const;

export type QualityVariant = Pick<VariantResult, "name" | "template" | "permutations" | "items">;

export function stratumOf(item: Pick<QualityItem, "type" | "tier">): string {
  return `${item.type}/${item.tier}`;
}

/**
 * The console's outcome of one item. A debiased answer's `option_logits` describe the order as sent, not the
 * averaged probabilities, so those items give the temperature fit no logits (it then uses log-probabilities).
 */
export function outcomeOf(item: QualityItem, debiased: boolean): DecisionOutcome {
  return {
    itemId: item.id,
    optionIds: item.option_ids,
    answer: item.label,
    probabilities: item.probabilities,
    logits: debiased ? null : item.option_logits,
    errorKind: item.error ? "rejected" : null,
    errorMessage: item.error?.message ?? null,
    category: stratumOf(item),
    tier: item.tier,
  };
}

/** Chance: the accuracy of a uniform guess, the mean of 1/options. */
function chance(items: readonly QualityItem[]): number | null {
  return items.length === 0 ? null : items.reduce((sum, item) => sum + 1 / item.option_ids.length, 0) / items.length;
}

/** ECE of `evaluate` after softmax(logits / T) with T fitted on `fit` only. */
function heldOutCalibration(fit: readonly DecisionOutcome[], evaluate: readonly DecisionOutcome[]) {
  const fitted = fitTemperature(fit);
  const scored = evaluate.filter(isScored);
  if (!fitted) return null;
  const rescaled = scored.map((outcome) => ({
    ...outcome,
    probabilities: softmax(logitsOf(outcome), fitted.temperature),
  }));
  return {
    temperature: fitted.temperature,
    items: scored.length,
    eceBefore: calibration(scored).ece,
    eceAfter: calibration(rescaled).ece,
  };
}

/** The sample's benchmark counts a refused item as wrong: accuracy over every item asked, as it reports it. */
function overAllAsked({ correct, total }: AccuracyCell) {
  return { correct, total, accuracy: total === 0 ? null : correct / total };
}

export function variantSummary(variant: QualityVariant) {
  const debiased = variant.permutations !== 1;
  const outcomes = variant.items.map((item) => outcomeOf(item, debiased));
  const curve = coverageCurve(outcomes);
  const strata = [...new Set(variant.items.map(stratumOf))].sort();
  const byStratum = accuracyBy(outcomes, (outcome) => outcome.category);
  const fit = fitTemperature(outcomes);
  // Two halves by position in the file (alternate items), each calibrated with the other's temperature.
  const even = outcomes.filter((_, index) => index % 2 === 0);
  const odd = outcomes.filter((_, index) => index % 2 === 1);
  return {
    name: variant.name,
    template: variant.template,
    permutations: variant.permutations,
    items: outcomes.length,
    scored: outcomes.filter(isScored).length,
    refused: variant.items.filter((item) => item.error).length,
    accuracy: overAllAsked(accuracy(outcomes)),
    chance: chance(variant.items),
    brier: brierScore(outcomes),
    ece: calibration(outcomes).ece,
    temperature: fit,
    heldOut: {
      fitOnEvenEvaluateOdd: heldOutCalibration(even, odd),
      fitOnOddEvaluateEven: heldOutCalibration(odd, even),
    },
    coverageAt: THRESHOLDS.map((threshold) => {
      const point = curve.find((candidate) => candidate.threshold >= threshold) ?? null;
      return {
        threshold,
        coverage: point?.coverage ?? 0,
        accuracy: point?.accuracy ?? null,
        covered: point?.covered ?? 0,
      };
    }),
    thresholdFor: TARGET_ACCURACIES.map((target) => ({ target, point: thresholdForAccuracy(curve, target) })),
    strata: strata.map((stratum) => {
      const members = variant.items.filter((item) => stratumOf(item) === stratum);
      return {
        stratum,
        ...overAllAsked(byStratum[stratum]!),
        chance: chance(members),
        brier: brierScore(members.map((item) => outcomeOf(item, debiased))),
      };
    }),
  };
}

/** How far two variants' answers to the same items lie apart: the largest probability moved, and choices changed. */
export function answerShift(from: QualityVariant, to: QualityVariant) {
  const target = new Map(to.items.map((item) => [item.id, item]));
  const moves: number[] = [];
  let changed = 0;
  for (const item of from.items) {
    const other = target.get(item.id);
    if (!item.probabilities || !other?.probabilities) continue;
    const p = item.probabilities;
    const q = other.probabilities;
    moves.push(Math.max(...p.map((value, index) => Math.abs(value - q[index]!))));
    if (chosenIndex(p) !== chosenIndex(q)) changed += 1;
  }
  const sorted = [...moves].sort((a, b) => a - b);
  return {
    from: from.name,
    to: to.name,
    compared: moves.length,
    choicesChanged: changed,
    meanMaxMove: moves.length === 0 ? null : moves.reduce((sum, value) => sum + value, 0) / moves.length,
    medianMaxMove: sorted.length === 0 ? null : sorted[Math.floor((sorted.length - 1) / 2)]!,
    maxMove: sorted.length === 0 ? null : sorted[sorted.length - 1]!,
  };
}

export type QualitySummary = ReturnType<typeof qualitySummary>;

export function qualitySummary(variants: readonly QualityVariant[]) {
  const named = (template: string, debiased: boolean) =>
    variants.find((variant) => variant.template === template && (variant.permutations !== 1) === debiased);
  const pairs: Array<[string, QualityVariant | undefined, QualityVariant | undefined]> = [
    ["debiasing (chat template)", named("auto", false), named("auto", true)],
    ["debiasing (plain prompt)", named("fallback", false), named("fallback", true)],
    ["plain prompt vs chat template", named("auto", false), named("fallback", false)],
  ];
  return {
    variants: variants.map(variantSummary),
    shifts: pairs.flatMap(([what, a, b]) => (a && b ? [{ what, ...answerShift(a, b) }] : [])),
  };
}
