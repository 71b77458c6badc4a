import type { CoveragePoint } from "./metrics.ts";

/**
 * The smallest threshold whose covered items reach the target accuracy, i.e. the most coverage that meets it; null
 * when no threshold does. The run's summary and the page's own target field both use it.
 */
export function thresholdForAccuracy(curve: readonly CoveragePoint[], targetAccuracy: number): CoveragePoint | null {
  return curve.find((point) => point.accuracy >= targetAccuracy) ?? null;
}
