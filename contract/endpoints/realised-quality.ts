import { z } from "zod";
import { calibrationSchema, temperatureFitSchema } from "../evaluate/metrics.ts";
import { evaluationBasisSchema } from "./evaluation-link.ts";
import { decisionThresholdSchema } from "./monitoring.ts";

/** The windows realised quality is read over, and the interval each is drawn in. */
export const realisedWindows = {
  "24h": { seconds: 86_400, intervalSeconds: 3_600 },
  "7d": { seconds: 604_800, intervalSeconds: 86_400 },
  "30d": { seconds: 2_592_000, intervalSeconds: 86_400 },
} as const;
export type RealisedWindow = keyof typeof realisedWindows;

/**
 * The fewest labelled decisions at the threshold before realised accuracy may raise the alarm: at 80% accuracy the
 * 95% Wilson interval of 250 labels is ±5 points, so a fall of 5 points below what the evaluation promised is told
 * from sampling noise (a fall of 10 from 62 labels). Fewer labels would alarm on noise; many more would wait days.
 */
export const MIN_LABELS_FOR_ALARM = 250;

export const realisedQuerySchema = z.object({
  window: z.enum(Object.keys(realisedWindows) as [RealisedWindow, ...RealisedWindow[]]).default("7d"),
  threshold: z.coerce.number().pipe(decisionThresholdSchema).optional(),
});
export type RealisedQuery = z.infer<typeof realisedQuerySchema>;

/** An accuracy over `labelled` decisions, with its 95% Wilson interval; null accuracy without labels. */
export const intervalAccuracySchema = z.object({
  labelled: z.number().int(),
  correct: z.number().int(),
  accuracy: z.number().nullable(),
  lower: z.number().nullable(),
  upper: z.number().nullable(),
});
export type IntervalAccuracy = z.infer<typeof intervalAccuracySchema>;

export const realisedIntervalSchema = z.object({
  from: z.string(),
  /** Decisions of the kind captured in the interval, and how many of them have a label. */
  decisions: z.number().int(),
  labelled: z.number().int(),
  accuracy: intervalAccuracySchema,
  atThreshold: intervalAccuracySchema,
});
export type RealisedInterval = z.infer<typeof realisedIntervalSchema>;

/**
 * What the evaluation the endpoint was deployed, promoted or updated with (or an operator chose) measured on this
 * kind, else the one the kind's drift baseline was set from, at the same threshold; `basis` says which and why.
 */
export const evaluationPromiseSchema = z.object({
  runId: z.string(),
  basis: evaluationBasisSchema,
  accuracy: intervalAccuracySchema,
  atThreshold: intervalAccuracySchema,
  /** Share of the evaluation's scored items of this kind whose top probability reaches the threshold. */
  coverage: z.number().nullable(),
  ece: z.number().nullable(),
});
export type EvaluationPromise = z.infer<typeof evaluationPromiseSchema>;

export const realisedAlarmSchema = z.object({
  /** ALARM: accuracy at the threshold below the evaluation's lower bound with at least MIN_LABELS_FOR_ALARM labels. */
  state: z.enum(["OK", "ALARM", "INSUFFICIENT_DATA"]),
  reason: z.string(),
});
export type RealisedAlarm = z.infer<typeof realisedAlarmSchema>;

export const realisedKindSchema = z.object({
  kind: z.string(),
  question: z.string(),
  options: z.array(z.string()),
  decisions: z.number().int(),
  labelled: z.number().int(),
  /** labelled / decisions over the window; null without decisions. */
  labelledShare: z.number().nullable(),
  /** From the decision to its label: median and 90th percentile, in seconds. */
  labelDelay: z.object({ p50Seconds: z.number(), p90Seconds: z.number() }).nullable(),
  accuracy: intervalAccuracySchema,
  atThreshold: intervalAccuracySchema,
  /** Share of the labelled decisions whose top probability reaches the threshold. */
  coverage: z.number().nullable(),
  brier: z.number().nullable(),
  calibration: calibrationSchema,
  intervals: z.array(realisedIntervalSchema),
  evaluation: evaluationPromiseSchema.nullable(),
  alarm: realisedAlarmSchema,
});
export type RealisedKind = z.infer<typeof realisedKindSchema>;

/**
 * A temperature fitted on the window's labelled production decisions (all kinds: SEMIF_TEMPERATURE is the endpoint's),
 * checked on held-out halves as evaluations do. The captured probabilities were scored at `currentTemperature`, so
 * the temperature to set is their product; it is offered only when the held-out figures improve.
 */
export const recalibrationSchema = z.object({
  currentTemperature: z.number(),
  fit: temperatureFitSchema,
  /** SEMIF_TEMPERATURE to set through the endpoint's update; null when the held-out check does not show a gain. */
  offeredTemperature: z.number().nullable(),
});
export type Recalibration = z.infer<typeof recalibrationSchema>;

export const realisedQualitySchema = z.object({
  endpointName: z.string(),
  from: z.string(),
  to: z.string(),
  intervalSeconds: z.number().int(),
  threshold: z.number(),
  minLabelsForAlarm: z.number().int(),
  kinds: z.array(realisedKindSchema),
  /** Null without labels. */
  recalibration: recalibrationSchema.nullable(),
});
export type RealisedQuality = z.infer<typeof realisedQualitySchema>;
