import { z } from "zod";

export const deploymentStageSchema = z.object({
  status: z.string(),
  message: z.string().nullable(),
  startedAt: z.iso.datetime().nullable(),
});

export const rollbackAlarmStateSchema = z.object({
  name: z.string(),
  /** OK, ALARM or INSUFFICIENT_DATA; null when the alarm could not be read (deleted, or not allowed). */
  state: z.string().nullable(),
  reason: z.string().nullable(),
});

/** The datapoint by which CloudWatch moved an alarm to ALARM, beside its threshold, in the metric's unit. */
export const alarmCrossingSchema = z.object({
  metric: z.string(),
  statistic: z.string(),
  /** `>`, `>=`, `<` or `<=`, as the alarm compares. */
  comparison: z.string(),
  value: z.number(),
  threshold: z.number(),
  /** "ms" for ModelLatency (published in microseconds, read in ms as the update form asks for it), else CloudWatch's unit or "". */
  unit: z.string(),
});
export type AlarmCrossing = z.infer<typeof alarmCrossingSchema>;

/**
 * Why the endpoint's last update went back, as the console knows it: a person's abort (the audit log), an alarm
 * that went to ALARM while the update ran (the alarm's history), or, with neither, SageMaker's FailureReason.
 */
export const rollbackCauseSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("stopped"), by: z.string(), at: z.iso.datetime() }),
  z.object({
    kind: z.literal("alarm"),
    alarm: z.string(),
    at: z.iso.datetime(),
    /** Null when the alarm was set to ALARM by a call (SetAlarmState) rather than by its metric. */
    crossing: alarmCrossingSchema.nullable(),
    reason: z.string(),
  }),
  z.object({ kind: z.literal("failed"), reason: z.string() }),
]);
export type RollbackCause = z.infer<typeof rollbackCauseSchema>;

/** An endpoint's deployments as DescribeEndpoint reports them, for the detail page's progress. */
export const endpointDeploymentSchema = z.object({
  /** The update in progress (PendingDeploymentSummary), null when none. */
  pending: z
    .object({
      configName: z.string(),
      startedAt: z.iso.datetime().nullable(),
      /** Share of traffic on the new fleet (0..1), null before SageMaker reports weights. */
      newFleetShare: z.number().nullable(),
      newInstanceCount: z.number().int().nullable(),
      stages: z.array(deploymentStageSchema),
    })
    .nullable(),
  /** LastDeploymentConfig as SageMaker returns it. */
  lastDeploymentConfig: z.unknown().nullable(),
  alarms: z.array(rollbackAlarmStateSchema),
  /** Why the last update went back or failed; null when it did not (no FailureReason) or the cause was not read. */
  lastRollback: rollbackCauseSchema.nullable(),
  /** The configuration the serving one replaced, kept for a roll back; null when there is none. */
  previousConfig: z.string().nullable(),
  /** Which earlier configurations the console keeps, in words. */
  historyRule: z.string(),
});
export type EndpointDeployment = z.infer<typeof endpointDeploymentSchema>;
