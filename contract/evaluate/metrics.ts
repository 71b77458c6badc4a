import { z } from "zod";

/** What the console computes from one endpoint's outcomes (`server/evaluate/metrics`), as the browser receives it. */

export const accuracyCellSchema = z.object({
  correct: z.number().int(),
  /** Items the endpoint answered with probabilities: the ones accuracy is over. */
  answered: z.number().int(),
  /** Items that got no answer (busy, timeout, refused, unreachable): reported beside accuracy, never as wrong. */
  failed: z.number().int(),
  /** answered + failed: every item asked. */
  total: z.number().int(),
  /** correct / answered; null when nothing was answered. */
  accuracy: z.number().nullable(),
});
export type AccuracyCell = z.infer<typeof accuracyCellSchema>;

export const reliabilityBinSchema = z.object({
  /** [lower, upper): the last bin also holds 1.0. */
  lower: z.number(),
  upper: z.number(),
  count: z.number().int(),
  /** Mean confidence and accuracy of the bin's items; null for an empty bin. */
  meanConfidence: z.number().nullable(),
  accuracy: z.number().nullable(),
});
export type ReliabilityBin = z.infer<typeof reliabilityBinSchema>;

export const calibrationSchema = z.object({
  /** Expected calibration error: sum over bins of (count / N) * |accuracy - mean confidence|; null if N = 0. */
  ece: z.number().nullable(),
  bins: z.array(reliabilityBinSchema),
});
export type Calibration = z.infer<typeof calibrationSchema>;

export const confusionMatrixSchema = z.object({
  /**
   * `option` when every item offers the same option set; `position` otherwise (each item its own options), where
   * labels are option positions (A, B, ...).
   */
  by: z.enum(["option", "position"]),
  /** Every option id (or position) seen as an answer or a prediction, sorted. */
  labels: z.array(z.string()),
  /** counts[i][j]: items whose answer is labels[i] and whose chosen option is labels[j]. */
  counts: z.array(z.array(z.number().int())),
  /** Items without a prediction (errors), per answer label. */
  unscored: z.record(z.string(), z.number().int()),
  /** The most frequent wrong choices by option id (answer, chosen), at most ten. */
  topConfusions: z.array(z.object({ answer: z.string(), chosen: z.string(), count: z.number().int() })),
});
export type ConfusionMatrix = z.infer<typeof confusionMatrixSchema>;

export const coveragePointSchema = z.object({
  /** Answer only when the chosen option's probability is at least this. */
  threshold: z.number(),
  /** Share of scored items at or above the threshold. */
  coverage: z.number(),
  /** Accuracy among those items. */
  accuracy: z.number(),
  covered: z.number().int(),
});
export type CoveragePoint = z.infer<typeof coveragePointSchema>;

/** Nearest-rank quantiles of the successful calls' latencies, in ms. */
export const latencySummarySchema = z.object({
  count: z.number().int(),
  p50: z.number().nullable(),
  p95: z.number().nullable(),
  p99: z.number().nullable(),
  mean: z.number().nullable(),
  max: z.number().nullable(),
});
export type LatencySummary = z.infer<typeof latencySummarySchema>;

export const histogramBinSchema = z.object({
  /** [lower, upper) in milliseconds; the last bin also holds its upper edge. */
  lower: z.number(),
  upper: z.number(),
  count: z.number().int(),
});
export type HistogramBin = z.infer<typeof histogramBinSchema>;

/** Fewest answered items in each half of the temperature fit's held-out check: fewer, and a half tells nothing. */
export const HELD_OUT_MIN_ITEMS_PER_HALF = 5;

export const temperatureFitSchema = z.object({
  temperature: z.number(),
  logLossBefore: z.number(),
  logLossAfter: z.number(),
  eceBefore: z.number().nullable(),
  eceAfter: z.number().nullable(),
  items: z.number().int(),
  /**
   * Set when the fitted temperature is at an end of the searched range (0.05 to 20): the best fit lies at or
   * beyond it, so the number is a limit of the search, not a measured optimum.
   */
  atLimit: z.enum(["lowest", "highest"]).nullable(),
  /**
   * The fit checked on items it did not see: two folds (alternate items), each half rescaled with the temperature
   * fitted on the other half, then pooled. `improves` only when held-out log-loss falls and ECE does not rise; the
   * console offers the temperature only then. Null with too few items to split.
   */
  heldOut: z
    .object({
      items: z.number().int(),
      logLossBefore: z.number(),
      logLossAfter: z.number(),
      eceBefore: z.number().nullable(),
      eceAfter: z.number().nullable(),
      improves: z.boolean(),
    })
    .nullable(),
});
export type TemperatureFit = z.infer<typeof temperatureFitSchema>;

export const errorDetailSchema = z.object({
  kind: z.string(),
  count: z.number().int(),
  /** By message (numbers aside), most frequent first: the first item's message, the count, up to 50 item ids. */
  messages: z.array(z.object({ message: z.string(), count: z.number().int(), itemIds: z.array(z.string()) })),
});
export type ErrorDetail = z.infer<typeof errorDetailSchema>;

export const evaluationMetricsSchema = z.object({
  accuracy: accuracyCellSchema,
  /** Picking an option at random over the answered items (mean of 1 / options); null when none was answered. */
  chanceAccuracy: z.number().nullable(),
  byCategory: z.record(z.string(), accuracyCellSchema),
  byTier: z.record(z.string(), accuracyCellSchema),
  confusion: confusionMatrixSchema,
  brier: z.number().nullable(),
  calibration: calibrationSchema,
  latency: latencySummarySchema,
  latencyHistogram: z.array(histogramBinSchema),
  /** Failed items by error kind (`busy`, `rejected`, `timeout`, ...), most frequent first. */
  errors: z.record(z.string(), z.number().int()),
  errorDetails: z.array(errorDetailSchema),
  coverage: z.array(coveragePointSchema),
  threshold: z.object({ targetAccuracy: z.number(), point: coveragePointSchema.nullable() }),
  temperature: temperatureFitSchema.nullable(),
});
export type EvaluationMetrics = z.infer<typeof evaluationMetricsSchema>;
