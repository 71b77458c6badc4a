import { z } from "zod";
import { asyncInferenceDetailSchema } from "./async-inference.ts";
import { autoscalingSchema } from "./autoscaling.ts";
import { endpointDeploymentSchema } from "./deployment-status.ts";
import { MAX_RESOURCE_NAME_LENGTH, resourceNamePattern, sageMakerNameSchema } from "./resource-name-schema.ts";
import { endpointStatuses } from "./status.ts";

export const endpointStatusSchema = z.enum(endpointStatuses);

/** An endpoint name (and the name of its model and config), as SageMaker accepts it. */
export const resourceNameSchema = sageMakerNameSchema(resourceNamePattern, MAX_RESOURCE_NAME_LENGTH);

/** `decision`: the decision adapter (SemIf, systemone and chat); `chat`: a text-generation image such as the llama.cpp DLC. */
export const apiModeSchema = z.enum(["decision", "chat"]);
export type ApiMode = z.infer<typeof apiModeSchema>;

/** DescribeEndpoint's DataCaptureConfig summary: whether invocations are captured, how many, where. */
export const dataCaptureDetailSchema = z.object({
  enabled: z.boolean(),
  status: z.string().nullable(),
  samplingPercentage: z.number().nullable(),
  destination: z.string().nullable(),
});
export type DataCaptureDetail = z.infer<typeof dataCaptureDetailSchema>;

export const endpointSummarySchema = z.object({
  name: z.string(),
  arn: z.string(),
  status: endpointStatusSchema,
  apiMode: apiModeSchema,
  /** The CPU instance type, or the type of the instance pool that won (null while nothing is provisioned). */
  instanceType: z.string().nullable(),
  instanceCount: z.number().int().nullable(),
  /** True when the instances run in a pool other than the first-priority one. */
  usedFallbackPool: z.boolean(),
  imageDigest: z.string().nullable(),
  modelSha256: z.string().nullable(),
  createdAt: z.iso.datetime(),
  lastModifiedAt: z.iso.datetime(),
  /** Price of the running instances per hour from the bundled table; null when the type is not in it. */
  hourlyPriceUsd: z.number().nullable(),
  /** The variant whose instances are listed (the first), whose invocations the cost below counts. */
  variantName: z.string().nullable(),
  /**
   * USD per 1,000 decisions over the list's window (`costWindowHours`): the listed instances' hourly price over the
   * invocations CloudWatch counted for the variant; null without invocations, a price or the metrics.
   */
  costPerThousandUsd: z.number().nullable(),
  failureReason: z.string().nullable(),
  /**
   * False for an endpoint the console's IAM policy does not cover (named without CONSOLE_RESOURCE_PREFIX, or one
   * SageMaker refused to describe): listed from ListEndpoints only, never described, opened or changed.
   */
  managed: z.boolean(),
});
export type EndpointSummary = z.infer<typeof endpointSummarySchema>;

export const endpointListSchema = z.object({
  endpoints: z.array(endpointSummarySchema),
  /** Date of the bundled price table the hourly prices come from. */
  pricesAsOf: z.string(),
  /** The hours up to now over which each endpoint's cost per 1,000 decisions is counted. */
  costWindowHours: z.number(),
});
export type EndpointList = z.infer<typeof endpointListSchema>;

export const instancePoolDetailSchema = z.object({
  priority: z.number().int(),
  instanceType: z.string(),
  /** Instances of this type running now (null before SageMaker reports counts). */
  currentInstanceCount: z.number().int().nullable(),
  /** This pool is the one serving, and it is not the first-priority pool. */
  isFallback: z.boolean(),
});
export type InstancePoolDetail = z.infer<typeof instancePoolDetailSchema>;

export const variantDetailSchema = z.object({
  name: z.string(),
  /** Requested CPU type (null for an instance-pool variant). */
  instanceType: z.string().nullable(),
  pools: z.array(instancePoolDetailSchema),
  desiredInstanceCount: z.number().int().nullable(),
  currentInstanceCount: z.number().int().nullable(),
  provisioningTimeoutSeconds: z.number().int().nullable(),
  startupTimeoutSeconds: z.number().int().nullable(),
  downloadTimeoutSeconds: z.number().int().nullable(),
  /** Digest-pinned image the instances actually run. */
  resolvedImage: z.string().nullable(),
  statusMessages: z.array(z.object({ status: z.string(), message: z.string().nullable() })),
});
export type VariantDetail = z.infer<typeof variantDetailSchema>;

export const containerSettingsSchema = z.object({
  threads: z.number().int().nullable(),
  gpuLayers: z.union([z.literal("max"), z.number().int()]).nullable(),
  parallel: z.number().int().nullable(),
  temperature: z.number().nullable(),
  /** Every `SEMIF_*` variable set on the model, as given. */
  limits: z.record(z.string(), z.string()),
});
export type ContainerSettings = z.infer<typeof containerSettingsSchema>;

export const endpointDetailSchema = z.object({
  name: z.string(),
  arn: z.string(),
  status: endpointStatusSchema,
  apiMode: apiModeSchema,
  failureReason: z.string().nullable(),
  createdAt: z.iso.datetime(),
  lastModifiedAt: z.iso.datetime(),
  config: z.object({ name: z.string(), createdAt: z.iso.datetime().nullable() }),
  model: z.object({
    name: z.string(),
    imageUri: z.string().nullable(),
    modelDataUrl: z.string().nullable(),
    compression: z.enum(["Gzip", "None"]).nullable(),
    modelSha256: z.string().nullable(),
    /** The Model Registry version the model was created from (its container's ModelPackageName), if any. */
    modelVersionArn: z.string().nullable(),
    networkIsolation: z.boolean(),
    executionRoleArn: z.string().nullable(),
    environment: z.record(z.string(), z.string()),
  }),
  settings: containerSettingsSchema,
  /** Null when the configuration captures nothing. */
  dataCapture: dataCaptureDetailSchema.nullable(),
  variants: z.array(variantDetailSchema),
  /** The serving instance type and count, as in the summary. */
  instanceType: z.string().nullable(),
  instanceCount: z.number().int().nullable(),
  hourlyPriceUsd: z.number().nullable(),
  /** Null when no scalable target is registered for the variant. */
  autoscaling: autoscalingSchema.nullable(),
  /** The AsyncInferenceConfig of an asynchronous endpoint; null for a real-time one. */
  asyncInference: asyncInferenceDetailSchema.nullable(),
  /** The update in progress and the last one's configuration and rollback alarms. */
  deployment: endpointDeploymentSchema,
});
export type EndpointDetail = z.infer<typeof endpointDetailSchema>;

/** `PATCH /api/endpoints/[name]` body. */
export const scaleRequestSchema = z.strictObject({
  instanceCount: z.number().int().min(1, "must be at least 1").max(20, "must be at most 20"),
});
export type ScaleRequest = z.infer<typeof scaleRequestSchema>;

/** The scale request SageMaker accepted (202: the endpoint is Updating). */
export const scaleResultSchema = z.object({
  name: z.string(),
  variantName: z.string(),
  instanceCount: z.number().int(),
});
export type ScaleResult = z.infer<typeof scaleResultSchema>;

/**
 * What the console forgot of a deleted endpoint: its evaluation links, its kept threshold and its drift baselines
 * (its captured decisions and labels stay, as what happened under its name).
 */
export const forgottenSettingsSchema = z.object({
  evaluationLinks: z.number().int(),
  threshold: z.boolean(),
  driftBaselines: z.number().int(),
});
export type ForgottenSettings = z.infer<typeof forgottenSettingsSchema>;

/** What `DELETE /api/endpoints/[name]` removed: the config and model are null when they were already gone. */
export const deletedResourcesSchema = z.object({
  endpoint: z.string(),
  endpointConfig: z.string().nullable(),
  model: z.string().nullable(),
  /** The CloudWatch alarms the console had created for the endpoint (rollback guards, scale-to-zero wake-up). */
  alarms: z.array(z.string()),
  settings: forgottenSettingsSchema,
});
export type DeletedResources = z.infer<typeof deletedResourcesSchema>;
export const deleteResultSchema = z.object({ deleted: deletedResourcesSchema });
export type DeleteResult = z.infer<typeof deleteResultSchema>;
