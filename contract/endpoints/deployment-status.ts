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
  /** The configuration the serving one replaced, kept for a roll back; null when there is none. */
  previousConfig: z.string().nullable(),
  /** Which earlier configurations the console keeps, in words. */
  historyRule: z.string(),
});
export type EndpointDeployment = z.infer<typeof endpointDeploymentSchema>;
