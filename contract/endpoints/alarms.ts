import { z } from "zod";

/** Why the console created an alarm for an endpoint. */
export const endpointAlarmKindSchema = z.enum([
  /** A standard rollback guard of an update (`<endpoint>-rollback-<what>`): SageMaker rolls back when it goes off. */
  "rollback-guard",
  /** Scale to zero's HasBacklogWithoutCapacity alarm, which adds an instance to an endpoint at 0. */
  "scale-to-zero-wake-up",
  /** The alarms Application Auto Scaling created for the console's target-tracking policy. */
  "target-tracking",
]);
export type EndpointAlarmKind = z.infer<typeof endpointAlarmKindSchema>;

export const endpointAlarmSchema = z.object({
  name: z.string(),
  kind: endpointAlarmKindSchema,
  /** What it watches, in words: `Sum of Invocation5XXErrors > 0 over 1 × 60 s`. */
  condition: z.string(),
  state: z.enum(["OK", "ALARM", "INSUFFICIENT_DATA"]),
  stateReason: z.string().nullable(),
  stateUpdatedAt: z.iso.datetime().nullable(),
  /** Its latest state changes (DescribeAlarmHistory), newest first. */
  history: z.array(z.object({ at: z.iso.datetime(), summary: z.string() })),
});
export type EndpointAlarm = z.infer<typeof endpointAlarmSchema>;

/** `GET /api/endpoints/[name]/alarms`. */
export const endpointAlarmsSchema = z.object({
  endpointName: z.string(),
  alarms: z.array(endpointAlarmSchema),
});
export type EndpointAlarms = z.infer<typeof endpointAlarmsSchema>;
