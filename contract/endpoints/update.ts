import { z } from "zod";
import { modelVersionArnSchema } from "../models/model-version-arn.ts";
import { autoscalingSchema } from "./autoscaling.ts";
import { imageUriSchema, instanceTypeSchema, s3UrlSchema, sha256Schema, temperatureSchema } from "./deploy.ts";
import { type CapacitySize, capacityProblem, type DeploymentConfig, type DeploymentPlan } from "./deployment-plan.ts";
import { resourceNameSchema } from "./endpoint.ts";
import { instanceCountSchema } from "./instance-count.ts";
import { instancePoolsSchema } from "./instance-pools.ts";

/** A canary, linear step or rolling batch: whole instances or a share of the fleet. */
export const stepSizeSchema = z.strictObject({
  unit: z.enum(["instances", "percent"]),
  value: z.number().int().min(1).max(100),
});
export type StepSize = z.infer<typeof stepSizeSchema>;

/** WaitIntervalInSeconds and TerminationWaitInSeconds: 0-3600 s (API reference). */
const waitSeconds = z.number().int().min(0, "must be 0-3600 seconds").max(3600, "must be 0-3600 seconds");

export const updateStrategySchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("all-at-once"), waitSeconds }),
  z.strictObject({ kind: z.literal("canary"), size: stepSizeSchema, waitSeconds }),
  z.strictObject({ kind: z.literal("linear"), size: stepSizeSchema, waitSeconds }),
  z.strictObject({
    kind: z.literal("rolling"),
    size: stepSizeSchema,
    waitSeconds,
    rollbackSize: stepSizeSchema.optional(),
  }),
]);
export type UpdateStrategy = z.infer<typeof updateStrategySchema>;

/**
 * The rollback alarms: the console's standard three on the endpoint (5XX errors, ModelLatency average, model errors
 * or, on an asynchronous endpoint, failed invocations, per minute), alarms that already exist, or none.
 */
export const rollbackAlarmsSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("standard"),
    /** ModelLatency's average above this (milliseconds) in a minute is an alarm. */
    latencyAverageMs: z.number().positive().max(3_600_000),
    /** Invocation5XXErrors above this in a minute is an alarm (0: any). */
    max5xxPerMinute: z.number().int().min(0).default(0),
    /** InvocationModelErrors (real-time) or InvocationFailures (asynchronous) above this in a minute is an alarm. */
    maxModelErrorsPerMinute: z.number().int().min(0).default(0),
  }),
  z.strictObject({ kind: z.literal("existing"), names: z.array(z.string().min(1).max(255)).min(1).max(10) }),
  z.strictObject({ kind: z.literal("none") }),
]);
export type RollbackAlarms = z.infer<typeof rollbackAlarmsSchema>;

/** What changes; each absent field stays as the endpoint runs it now. */
export const endpointChangeSchema = z.strictObject({
  /** An Approved Model Registry version to serve instead: its image and model data (give neither with it). */
  modelVersionArn: modelVersionArnSchema.optional(),
  imageUri: imageUriSchema.optional(),
  modelDataUrl: s3UrlSchema.optional(),
  /** The new model's sha256 (the adapter enforces it; a chat model's tags record it); with modelDataUrl only. */
  modelSha256: sha256Schema.optional(),
  /** SEMIF_TEMPERATURE; null removes it (the adapter's default). */
  temperature: temperatureSchema.nullable().optional(),
  /** ADAPTER_THREADS. */
  threads: z.number().int().min(1).max(256).optional(),
  /** ADAPTER_PARALLEL. */
  parallel: z.number().int().min(1).max(64).optional(),
  instanceCount: instanceCountSchema.optional(),
  /** One instance type instead of the variant's type or pools. */
  instanceType: instanceTypeSchema.optional(),
  /** Instance pools (InstancePools), highest priority first, instead of the variant's type or pools. */
  instancePools: instancePoolsSchema(instanceTypeSchema, (type) => type).optional(),
});
export type EndpointChange = z.infer<typeof endpointChangeSchema>;

/** `POST /api/endpoints/[name]/update` body. */
/** MaximumExecutionTimeoutInSeconds' upper bound. */
const MAX_EXECUTION_SECONDS = 28800;

/** The longest an update may run, and a margin for its rollback: how long the console waits for one to end. */
export const LONGEST_UPDATE_SECONDS = MAX_EXECUTION_SECONDS + 3600;

export const updateRequestSchema = z.strictObject({
  change: endpointChangeSchema,
  strategy: updateStrategySchema,
  /** Blue/green only: how long the old fleet is kept after all traffic moved (0-3600 s). */
  terminationWaitSeconds: waitSeconds.default(0),
  /** MaximumExecutionTimeoutInSeconds: 600-28800 s; absent: SageMaker's default. */
  maxExecutionSeconds: z.number().int().min(600).max(MAX_EXECUTION_SECONDS).optional(),
  alarms: rollbackAlarmsSchema,
  /** Back to an earlier configuration of this endpoint (the deployment's previous one) instead of a change. */
  rollBackTo: resourceNameSchema.optional(),
});
export type UpdateRequest = z.infer<typeof updateRequestSchema>;
export type UpdateRequestInput = z.input<typeof updateRequestSchema>;

export const updateResultSchema = z.object({
  name: z.string(),
  /** The endpoint configuration and model the update moves to (named `<endpoint>-<short sha of the change>`). */
  endpointConfigName: z.string(),
  modelName: z.string(),
  previousEndpointConfigName: z.string(),
  alarms: z.array(z.string()),
  deploymentConfig: z.unknown(),
  /**
   * The variant's autoscaling when the update changes its instance type: Application Auto Scaling refuses such an
   * update of a scalable target, so it was deregistered and is registered again, the same, once the update is over.
   */
  autoscalingReRegistered: autoscalingSchema.nullable(),
  status: z.literal("Updating"),
});
export type UpdateResult = z.infer<typeof updateResultSchema>;

/** `POST /api/endpoints/[name]/update/abort` answer: the rollback alarm set to ALARM, which SageMaker rolls back on. */
export const abortUpdateResultSchema = z.object({
  name: z.string(),
  /** The configuration the aborted update was moving to. */
  configName: z.string(),
  alarm: z.string(),
  status: z.literal("Updating"),
});
export type AbortUpdateResult = z.infer<typeof abortUpdateResultSchema>;

/** A step size as the SDK's CapacitySize. */
export function capacitySizeOf(size: StepSize): CapacitySize {
  return { Type: size.unit === "instances" ? "INSTANCE_COUNT" : "CAPACITY_PERCENT", Value: size.value };
}

/**
 * Why a strategy's step size cannot serve a variant of `instanceCount` instances (a canary of 1 on 1 instance breaks
 * "CanarySize must be <= 50%"), or null when it fits or the strategy has no step.
 */
export function strategyCapacityProblem(strategy: UpdateStrategy, instanceCount: number): string | null {
  return strategy.kind === "all-at-once"
    ? null
    : capacityProblem(strategy.kind, capacitySizeOf(strategy.size), instanceCount);
}

/** The request's strategy as UpdateEndpoint's DeploymentConfig, with the rollback alarms by name. */
export function deploymentConfigOf(
  request: Pick<UpdateRequest, "strategy" | "terminationWaitSeconds" | "maxExecutionSeconds">,
  alarmNames: readonly string[],
): DeploymentConfig {
  const { strategy } = request;
  const timeout =
    request.maxExecutionSeconds === undefined ? {} : { MaximumExecutionTimeoutInSeconds: request.maxExecutionSeconds };
  const rollback =
    alarmNames.length > 0
      ? { AutoRollbackConfiguration: { Alarms: alarmNames.map((AlarmName) => ({ AlarmName })) } }
      : {};
  if (strategy.kind === "rolling") {
    return {
      RollingUpdatePolicy: {
        MaximumBatchSize: capacitySizeOf(strategy.size),
        WaitIntervalInSeconds: strategy.waitSeconds,
        ...timeout,
        ...(strategy.rollbackSize ? { RollbackMaximumBatchSize: capacitySizeOf(strategy.rollbackSize) } : {}),
      },
      ...rollback,
    };
  }
  const routing =
    strategy.kind === "canary"
      ? { Type: "CANARY" as const, CanarySize: capacitySizeOf(strategy.size) }
      : strategy.kind === "linear"
        ? { Type: "LINEAR" as const, LinearStepSize: capacitySizeOf(strategy.size) }
        : { Type: "ALL_AT_ONCE" as const };
  return {
    BlueGreenUpdatePolicy: {
      TrafficRoutingConfiguration: { ...routing, WaitIntervalInSeconds: strategy.waitSeconds },
      TerminationWaitInSeconds: request.terminationWaitSeconds,
      ...timeout,
    },
    ...rollback,
  };
}

/** Words for a plan step's share of traffic, as the review and the progress show it. */
export function describePlan(plan: DeploymentPlan): string[] {
  const steps = plan.steps.map((step, index) => {
    const share = `${Math.round(step.newFleetShare * 100)}% of traffic`;
    return plan.strategy === "rolling"
      ? `Batch ${index + 1}: ${step.newInstances} of ${plan.totalInstances} instances replaced, ${share} on the new fleet, then ${step.bakeSeconds} s waiting`
      : `Step ${index + 1}: ${share} on the new fleet (${step.newInstances} of ${plan.totalInstances} instances), then ${step.bakeSeconds} s baking`;
  });
  if (plan.strategy === "rolling") {
    steps.push(
      `On a rollback: ${plan.rollbackBatchInstances} instance${plan.rollbackBatchInstances === 1 ? "" : "s"} back on the old configuration at a time`,
    );
  }
  return steps;
}
