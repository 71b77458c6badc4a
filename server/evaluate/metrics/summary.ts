import type { EvaluationMetrics } from "../../../contract/evaluate/metrics.ts";
import { thresholdForAccuracy } from "../../../contract/evaluate/threshold.ts";
import { accuracy, accuracyBy, chanceAccuracy } from "./accuracy.ts";
import { brierScore } from "./brier.ts";
import { calibration } from "./calibration.ts";
import { confusionMatrix } from "./confusion.ts";
import { coverageCurve } from "./coverage.ts";
import { errorCounts, errorDetails } from "./errors.ts";
import { latencyHistogram, latencySummary } from "./latency.ts";
import type { DecisionOutcome } from "./outcome.ts";
import { fitTemperature } from "./temperature.ts";

/** Every metric of one endpoint's outcomes. Latency counts successful calls only. */
export function evaluationMetrics(outcomes: readonly DecisionOutcome[], targetAccuracy = 0.9): EvaluationMetrics {
  const latencies = outcomes
    .filter((outcome) => !outcome.errorKind && typeof outcome.latencyMs === "number")
    .map((outcome) => outcome.latencyMs as number);
  const coverage = coverageCurve(outcomes);
  return {
    accuracy: accuracy(outcomes),
    chanceAccuracy: chanceAccuracy(outcomes),
    byCategory: accuracyBy(outcomes, (outcome) => outcome.category),
    byTier: accuracyBy(outcomes, (outcome) => outcome.tier),
    confusion: confusionMatrix(outcomes),
    brier: brierScore(outcomes),
    calibration: calibration(outcomes),
    latency: latencySummary(latencies),
    latencyHistogram: latencyHistogram(latencies),
    errors: errorCounts(outcomes),
    errorDetails: errorDetails(outcomes),
    coverage,
    threshold: { targetAccuracy, point: thresholdForAccuracy(coverage, targetAccuracy) },
    temperature: fitTemperature(outcomes),
  };
}
