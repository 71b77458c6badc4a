import type { CoveragePoint } from "./metrics.ts";

/**
 * The smallest threshold whose covered items reach the target accuracy, i.e. the most coverage that meets it; null
 * when no threshold does. The run's summary and the page's own target field both use it.
 */
export function thresholdForAccuracy(curve: readonly CoveragePoint[], targetAccuracy: number): CoveragePoint | null {
  return curve.find((point) => point.accuracy >= targetAccuracy) ?? null;
}

/**
 * The Wilson score interval (95%, z = 1.96) of an accuracy measured as `correct` of `total`: how far the true
 * accuracy at a threshold may lie from what a run saw. A threshold picked on a handful of items reads 100% with an
 * interval reaching far below the target; the page says so instead of offering it as if it were settled.
 */
export function accuracyInterval(correct: number, total: number, z = 1.96): { lower: number; upper: number } {
  if (total <= 0) return { lower: 0, upper: 1 };
  const p = correct / total;
  const z2 = z * z;
  const centre = p + z2 / (2 * total);
  const spread = z * Math.sqrt((p * (1 - p)) / total + z2 / (4 * total * total));
  const denominator = 1 + z2 / total;
  return {
    lower: Math.max(0, (centre - spread) / denominator),
    upper: Math.min(1, (centre + spread) / denominator),
  };
}

/**
 * The threshold `thresholdForAccuracy` picks on `curve`, in the words the evaluation page shows: how many of the
 * scored items it answers and the 95% interval of their accuracy, with a warning when that interval reaches below
 * the target.
 */
export function thresholdAdvice(curve: readonly CoveragePoint[], targetAccuracy: number): string {
  const share = (value: number) => `${(value * 100).toFixed(1)}%`;
  const picked = thresholdForAccuracy(curve, targetAccuracy);
  if (!picked) return `No threshold reaches ${share(targetAccuracy)} accuracy on this run.`;
  const correct = Math.round(picked.accuracy * picked.covered);
  const { lower, upper } = accuracyInterval(correct, picked.covered);
  // The lowest threshold answers every scored item.
  const total = Math.max(...curve.map((point) => point.covered));
  const answer =
    `Answer when the top probability is at least ${picked.threshold.toFixed(3)}: ${picked.covered} of ${total} items ` +
    `(${share(picked.coverage)}) at ${share(picked.accuracy)} accuracy (95% interval ${share(lower)}–${share(upper)}); ` +
    "route the rest to a fallback.";
  return lower >= targetAccuracy
    ? answer
    : `${answer} On ${picked.covered} item${picked.covered === 1 ? "" : "s"} the interval reaches below the ` +
        `${share(targetAccuracy)} target: label more decisions before relying on this threshold.`;
}
