import { z } from "zod";

/** A variant's scalable target and target-tracking policy, as Application Auto Scaling reports them. */
export const autoscalingSchema = z.object({
  minCapacity: z.number().int(),
  maxCapacity: z.number().int(),
  /** Invocations per instance per minute the target-tracking policy aims at (null: no policy). */
  targetInvocationsPerInstance: z.number().nullable(),
  scaleInDisabled: z.boolean(),
  scaleInCooldownSeconds: z.number().int().nullable(),
  scaleOutCooldownSeconds: z.number().int().nullable(),
  /** Asynchronous endpoints: scales in to 0 instances on an empty queue and wakes on a request. */
  scaleToZero: z.boolean(),
  /** Queued requests per instance the backlog target-tracking policy aims at (null: scale to zero is off). */
  targetBacklogPerInstance: z.number().nullable(),
});
export type Autoscaling = z.infer<typeof autoscalingSchema>;

/** `PUT /api/endpoints/[name]/autoscaling` body. */
export const autoscalingRequestSchema = z
  .strictObject({
    /** 0 only with scaleToZero (asynchronous endpoints; Application Auto Scaling refuses it for real-time ones). */
    minCapacity: z.number().int().min(0).max(100),
    maxCapacity: z.number().int().min(1).max(100),
    /** Invocations per instance per minute (SageMakerVariantInvocationsPerInstance); not used with scaleToZero. */
    targetInvocationsPerInstance: z.number().positive().max(1_000_000).optional(),
    /** True: the policy only adds instances; an operator scales in by hand. */
    scaleInDisabled: z.boolean().default(false),
    scaleInCooldownSeconds: z.number().int().min(0).max(3600).default(300),
    scaleOutCooldownSeconds: z.number().int().min(0).max(3600).default(60),
    /**
     * Scale to zero when idle (asynchronous endpoints): MinCapacity 0, target tracking on
     * ApproximateBacklogSizePerInstance, and a step policy on a HasBacklogWithoutCapacity alarm that wakes it.
     */
    scaleToZero: z.boolean().default(false),
    targetBacklogPerInstance: z.number().positive().max(1_000_000).default(5),
  })
  .refine((value) => value.maxCapacity >= value.minCapacity, {
    message: "Must be at least the minimum instance count (minCapacity).",
    path: ["maxCapacity"],
  })
  .refine((value) => value.scaleToZero === (value.minCapacity === 0), {
    message: "Must be at least 1; 0 goes only with scale to zero (minCapacity 0 and scaleToZero together).",
    path: ["minCapacity"],
  })
  .refine((value) => value.scaleToZero || value.targetInvocationsPerInstance !== undefined, {
    message: "targetInvocationsPerInstance is required unless scaleToZero",
    path: ["targetInvocationsPerInstance"],
  })
  .refine((value) => !(value.scaleToZero && value.scaleInDisabled), {
    message: "scale to zero needs scale-in",
    path: ["scaleInDisabled"],
  });
export type AutoscalingRequest = z.infer<typeof autoscalingRequestSchema>;
export type AutoscalingRequestInput = z.input<typeof autoscalingRequestSchema>;

/** `GET`, `PUT` and `DELETE /api/endpoints/[name]/autoscaling` answer; null when no scalable target is registered. */
export const autoscalingResponseSchema = z.object({ autoscaling: autoscalingSchema.nullable() });
export type AutoscalingResponse = z.infer<typeof autoscalingResponseSchema>;
