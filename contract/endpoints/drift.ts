import { z } from "zod";

/** How often the console publishes each baselined kind's drift, and over what window (the last hour). */
export const DRIFT_SCHEDULE = { publishEverySeconds: 300, windowSeconds: 3_600 } as const;
/** The drift alarm: Maximum over 5-minute periods, ALARM when 2 of the last 3 are above the threshold. */
export const DRIFT_ALARM = { periodSeconds: 300, evaluationPeriods: 3, datapointsToAlarm: 2 } as const;

const kindSchema = z.string().regex(/^[0-9a-f]{16}$/, "kind is a decision kind's 16-hex-digit id");
const isoTime = z.iso.datetime({ offset: true, error: "a time in ISO 8601 (2026-12-04T10:00:00Z)" });

export const driftBaselineSourceSchema = z.discriminatedUnion("source", [
  /** The decisions the endpoint captured in [from, to). */
  z.strictObject({ source: z.literal("window"), from: isoTime, to: isoTime }),
  /** An evaluation run's scored items of this kind (the same question and options). */
  z.strictObject({ source: z.literal("evaluation"), runId: z.string().min(1).max(100) }),
]);
export type DriftBaselineSource = z.infer<typeof driftBaselineSourceSchema>;

/**
 * `PUT /api/endpoints/[name]/drift`: sets a kind's baseline, its alarm threshold (PutMetricAlarm on both drift
 * metrics), or both.
 */
export const driftRequestSchema = z
  .strictObject({
    kind: kindSchema,
    baseline: driftBaselineSourceSchema.optional(),
    /** The Jensen–Shannon distance above which the alarm goes to ALARM (0 to 1, exclusive). */
    alarmThreshold: z
      .number({ error: "alarmThreshold must be a number between 0 and 1" })
      .gt(0, "alarmThreshold must be between 0 and 1")
      .lt(1, "alarmThreshold must be between 0 and 1")
      .optional(),
  })
  .refine((body) => body.baseline !== undefined || body.alarmThreshold !== undefined, {
    message: "give a baseline, an alarmThreshold, or both",
  });
export type DriftRequest = z.infer<typeof driftRequestSchema>;

const alarmStateSchema = z.enum(["OK", "ALARM", "INSUFFICIENT_DATA"]);

export const driftAlarmSchema = z.object({
  name: z.string(),
  metricName: z.string(),
  threshold: z.number(),
  state: alarmStateSchema,
  stateReason: z.string(),
});
export type DriftAlarm = z.infer<typeof driftAlarmSchema>;

export const driftKindSchema = z.object({
  kind: z.string(),
  question: z.string(),
  options: z.array(z.string()),
  /** Null for a kind with alarms set but no baseline yet (nothing is published for it). */
  baseline: z
    .object({
      /** `capture window <from>..<to>` or `evaluation run <id>`. */
      source: z.string(),
      decisions: z.number().int(),
      setBy: z.string(),
      setAt: z.string(),
    })
    .nullable(),
  /** The last hour's decisions against the baseline, as the publisher computes them; null without a baseline. */
  current: z
    .object({
      from: z.string(),
      to: z.string(),
      decisions: z.number().int(),
      /** Jensen–Shannon distance (base 2, 0 to 1) of the chosen-option mix; null without decisions. */
      optionMix: z.number().nullable(),
      /** The same of the top probability, in twentieths of [0, 1]. */
      confidence: z.number().nullable(),
      /** What sampling alone makes of each distance at these counts (χ² at 0.999); null without decisions. */
      noise: z.object({ optionMix: z.number().nullable(), confidence: z.number().nullable() }),
    })
    .nullable(),
  /** One alarm per metric, both at the threshold the operator set; empty before one is set. */
  alarms: z.array(driftAlarmSchema),
});
export type DriftKind = z.infer<typeof driftKindSchema>;

export const driftResponseSchema = z.object({
  endpointName: z.string(),
  namespace: z.string(),
  publishEverySeconds: z.number().int(),
  windowSeconds: z.number().int(),
  kinds: z.array(driftKindSchema),
});
export type DriftResponse = z.infer<typeof driftResponseSchema>;
