import { type AccuracyCell, accuracy, accuracyBy } from "./accuracy.ts";
import { brierScore } from "./brier.ts";
import { type Calibration, calibration } from "./calibration.ts";
import { type ConfusionMatrix, confusionMatrix } from "./confusion.ts";
import { type CoveragePoint, coverageCurve, thresholdForAccuracy } from "./coverage.ts";
import { errorCounts } from "./errors.ts";
import { type HistogramBin, type LatencySummary, latencyHistogram, latencySummary } from "./latency.ts";
import type { DecisionOutcome } from "./outcome.ts";
import { fitTemperature, type TemperatureFit } from "./temperature.ts";

export interface EvaluationMetrics {
  accuracy: AccuracyCell;
  byCategory: Record<string, AccuracyCell>;
  byTier: Record<string, AccuracyCell>;
  confusion: ConfusionMatrix;
  brier: number | null;
  calibration: Calibration;
  latency: LatencySummary;
  latencyHistogram: HistogramBin[];
  errors: Record<string, number>;
  coverage: CoveragePoint[];
  threshold: { targetAccuracy: number; point: CoveragePoint | null };
  temperature: TemperatureFit | null;
}

/** Every metric of one endpoint's outcomes. Latency counts successful calls only. */
export function evaluationMetrics(outcomes: readonly DecisionOutcome[], targetAccuracy = 0.9): EvaluationMetrics {
  const latencies = outcomes
    .filter((outcome) => !outcome.errorKind && typeof outcome.latencyMs === "number")
    .map((outcome) => outcome.latencyMs as number);
  const coverage = coverageCurve(outcomes);
  return {
    accuracy: accuracy(outcomes),
    byCategory: accuracyBy(outcomes, (outcome) => outcome.category),
    byTier: accuracyBy(outcomes, (outcome) => outcome.tier),
    confusion: confusionMatrix(outcomes),
    brier: brierScore(outcomes),
    calibration: calibration(outcomes),
    latency: latencySummary(latencies),
    latencyHistogram: latencyHistogram(latencies),
    errors: errorCounts(outcomes),
    coverage,
    threshold: { targetAccuracy, point: thresholdForAccuracy(coverage, targetAccuracy) },
    temperature: fitTemperature(outcomes),
  };
}
