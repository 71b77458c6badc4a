import { z } from "zod";
import { endpointChangeSchema, updateRequestSchema } from "./update.ts";

/** `POST /api/endpoints/[name]/shadow`: a candidate (the change) beside the serving model, on a copy of traffic. */
export const shadowTestRequestSchema = z.strictObject({
  /** What the candidate changes of the serving model: a model version, model data, temperature, threads, … */
  change: endpointChangeSchema,
  /** Share of production's requests copied to the candidate. */
  samplingPercentage: z
    .number()
    .int("samplingPercentage must be a whole percent")
    .min(1, "samplingPercentage must be 1-100")
    .max(100, "samplingPercentage must be 1-100")
    .default(100),
});
export type ShadowTestRequest = z.infer<typeof shadowTestRequestSchema>;
export type ShadowTestRequestInput = z.input<typeof shadowTestRequestSchema>;

export const shadowTestResultSchema = z.object({
  name: z.string(),
  /** The configuration with the shadow variant, and the one the endpoint goes back to when the test ends. */
  endpointConfigName: z.string(),
  previousEndpointConfigName: z.string(),
  shadowVariant: z.string(),
  shadowModelName: z.string(),
  samplingPercentage: z.number().int(),
  status: z.literal("Updating"),
});
export type ShadowTestResult = z.infer<typeof shadowTestResultSchema>;

/** `POST /api/endpoints/[name]/shadow/promote`: the test ends, then the candidate replaces production this way. */
export const promoteShadowRequestSchema = updateRequestSchema.omit({ change: true, rollBackTo: true });
export type PromoteShadowRequest = z.infer<typeof promoteShadowRequestSchema>;
export type PromoteShadowRequestInput = z.input<typeof promoteShadowRequestSchema>;

export const promoteShadowResultSchema = z.object({
  name: z.string(),
  /** The production-only configuration the endpoint goes back to first (no shadow, no traffic shifting). */
  endpointConfigName: z.string(),
  /** The update that follows once the endpoint is InService again: the candidate's change, by the request's strategy. */
  followedBy: z.object({ change: endpointChangeSchema, strategy: z.string() }),
  status: z.literal("Updating"),
});
export type PromoteShadowResult = z.infer<typeof promoteShadowResultSchema>;

/**
 * `GET /api/endpoints/[name]/shadow`: a promotion waiting in the background for its update, and the last one given
 * up with its reason, so the page that promoted shows a failure that happened after its request was answered.
 */
export const shadowPromotionStateSchema = z.object({
  waiting: z
    .object({
      requestedBy: z.string(),
      requestedAt: z.iso.datetime(),
      attempts: z.number().int(),
      lastError: z.string().nullable(),
    })
    .nullable(),
  lastFailure: z.object({ at: z.iso.datetime(), requestedBy: z.string(), reason: z.string() }).nullable(),
});
export type ShadowPromotionState = z.infer<typeof shadowPromotionStateSchema>;

export const endShadowTestResultSchema = z.object({
  name: z.string(),
  endpointConfigName: z.string(),
  status: z.literal("Updating"),
});
export type EndShadowTestResult = z.infer<typeof endShadowTestResultSchema>;
