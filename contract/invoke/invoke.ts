import { z } from "zod";

/** `POST /api/endpoints/[name]/invoke` body: `body` is sent to the container's /invocations as JSON. */
export const invokeRequestSchema = z.strictObject({
  body: z
    .record(z.string(), z.unknown())
    .describe("what the container's /invocations takes: a decision, systemone or chat request"),
  /** Use InvokeEndpointWithResponseStream (chat completions with `stream: true`). */
  stream: z.boolean().default(false),
});
export type InvokeRequest = z.infer<typeof invokeRequestSchema>;
export type InvokeRequestInput = z.input<typeof invokeRequestSchema>;

/**
 * `error.details` of a failed invoke (the console's usual error body): when the container answered, its own status
 * (also the HTTP status of the response), the busy answers retried first, its CloudWatch log stream and its body.
 */
export const invokeErrorDetailsSchema = z.object({
  originalStatusCode: z.number().int().optional(),
  retries: z.number().int().optional(),
  logStreamArn: z.string().optional(),
  containerBody: z.unknown().optional(),
});
export type InvokeErrorDetails = z.infer<typeof invokeErrorDetailsSchema>;

export const invocationRecordSchema = z.object({
  id: z.number().int(),
  endpointName: z.string(),
  at: z.iso.datetime(),
  stream: z.boolean(),
  /** Final HTTP status the console returned (the container's for ModelErrors). */
  status: z.number().int(),
  latencyMs: z.number(),
  retries: z.number().int(),
  requestBytes: z.number().int(),
  /** First 2 KB of the request, for the endpoint page. */
  requestPreview: z.string(),
  error: z.string().nullable(),
  user: z.string().nullable(),
});
export type InvocationRecord = z.infer<typeof invocationRecordSchema>;

export const invocationListSchema = z.object({
  invocations: z.array(invocationRecordSchema),
  /** Decisions applications sent the endpoint through the console's gateway in the last 24 hours. */
  gateway: z.object({ calls: z.number().int(), answered: z.number().int() }),
});
export type InvocationList = z.infer<typeof invocationListSchema>;

/** `GET /api/endpoints/[name]/invocations?limit=`. */
export const invocationsQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });
