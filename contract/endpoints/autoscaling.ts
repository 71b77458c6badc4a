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
});
export type Autoscaling = z.infer<typeof autoscalingSchema>;

/** `PUT /api/endpoints/[name]/autoscaling` body. */
export const autoscalingRequestSchema = z
  .strictObject({
    minCapacity: z.number().int().min(1, "must be at least 1").max(100),
    maxCapacity: z.number().int().min(1).max(100),
    /** Invocations per instance per minute (SageMakerVariantInvocationsPerInstance). */
    targetInvocationsPerInstance: z.number().positive().max(1_000_000),
    /** True: the policy only adds instances; an operator scales in by hand. */
    scaleInDisabled: z.boolean().default(false),
    scaleInCooldownSeconds: z.number().int().min(0).max(3600).default(300),
    scaleOutCooldownSeconds: z.number().int().min(0).max(3600).default(60),
  })
  .refine((value) => value.maxCapacity >= value.minCapacity, {
    message: "maxCapacity must be at least minCapacity",
    path: ["maxCapacity"],
  });
export type AutoscalingRequest = z.infer<typeof autoscalingRequestSchema>;
export type AutoscalingRequestInput = z.input<typeof autoscalingRequestSchema>;

/** `GET`, `PUT` and `DELETE /api/endpoints/[name]/autoscaling` answer; null when no scalable target is registered. */
export const autoscalingResponseSchema = z.object({ autoscaling: autoscalingSchema.nullable() });
export type AutoscalingResponse = z.infer<typeof autoscalingResponseSchema>;
