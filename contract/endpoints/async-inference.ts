import { z } from "zod";

/** AsyncInferenceNotificationConfig's topic pattern (SageMaker API reference): an SNS topic ARN. */
export const snsTopicArnSchema = z
  .string()
  .max(2048)
  .regex(
    /^arn:aws[a-z-]*:sns:[a-z0-9-]*:[0-9]{12}:[a-zA-Z0-9_.-]+$/,
    "must be an SNS topic ARN such as arn:aws:sns:us-east-1:123456789012:dc-async-done",
  );

/** AsyncInferenceClientConfig.MaxConcurrentInvocationsPerInstance in the SageMaker service model: 1-1000. */
const concurrencyRule = "must be a whole number from 1 to 1000";

/**
 * How the endpoint takes requests. `real-time`: InvokeEndpoint answers while the caller waits. `asynchronous`:
 * SageMaker Asynchronous Inference (requests queued, read from and answered to S3 under
 * `async/<endpoint>/`, optional SNS notifications), for background decisions that can wait seconds.
 */
export const invocationModeSchema = z.discriminatedUnion("mode", [
  z.strictObject({ mode: z.literal("real-time") }),
  z.strictObject({
    mode: z.literal("asynchronous"),
    /** Requests one instance works on at once; defaults to the adapter's ADAPTER_PARALLEL. */
    maxConcurrentInvocationsPerInstance: z
      .number({ error: concurrencyRule })
      .int(concurrencyRule)
      .min(1, concurrencyRule)
      .max(1000, concurrencyRule)
      .optional(),
    successTopic: snsTopicArnSchema.optional(),
    errorTopic: snsTopicArnSchema.optional(),
  }),
]);
export type InvocationMode = z.infer<typeof invocationModeSchema>;

/** An asynchronous endpoint's AsyncInferenceConfig, as the endpoint page and the playground show it. */
export const asyncInferenceDetailSchema = z.object({
  outputPath: z.string().nullable(),
  failurePath: z.string().nullable(),
  maxConcurrentInvocationsPerInstance: z.number().int().nullable(),
  successTopic: z.string().nullable(),
  errorTopic: z.string().nullable(),
});
export type AsyncInferenceDetail = z.infer<typeof asyncInferenceDetailSchema>;
