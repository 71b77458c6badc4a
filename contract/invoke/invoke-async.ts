import { z } from "zod";

/** `POST /api/endpoints/[name]/invoke-async` body: `body` is what the container's /invocations takes, as JSON. */
export const asyncInvokeRequestSchema = z.strictObject({
  body: z
    .record(z.string(), z.unknown())
    .describe("what the container's /invocations takes: a decision, systemone or chat request"),
});
export type AsyncInvokeRequest = z.infer<typeof asyncInvokeRequestSchema>;

/** What InvokeEndpointAsync answered at once: the request is queued; its outcome will appear at one location. */
export const asyncInvocationSchema = z.object({
  inferenceId: z.string(),
  /** Where the console wrote the request (`s3://<bucket>/async/<endpoint>/in/<uuid>.json`). */
  inputLocation: z.string(),
  outputLocation: z.string(),
  failureLocation: z.string().nullable(),
});
export type AsyncInvocation = z.infer<typeof asyncInvocationSchema>;

/** SageMaker's own inference ids are UUIDs; the route takes nothing that could name another object. */
export const inferenceIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/, "must be an InferenceId returned by invoke-async");

/**
 * `GET /api/endpoints/[name]/invoke-async/[inferenceId]`: one look at the outcome. `pending` while the request is
 * queued or running (S3 holds neither object yet); `completed` with the container's answer; `failed` with what
 * SageMaker wrote to the failure location (the container's error or the reason).
 */
export const asyncOutcomeSchema = z.object({
  status: z.enum(["pending", "completed", "failed"]),
  body: z.unknown(),
  outputLocation: z.string(),
  failureLocation: z.string().nullable(),
});
export type AsyncOutcome = z.infer<typeof asyncOutcomeSchema>;

/** What sent an asynchronous request: the playground (with the signed-in user) or an evaluation run's item. */
export const asyncSenderSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("playground"), user: z.string().nullable() }),
  z.object({ kind: z.literal("evaluation"), runId: z.string(), itemId: z.string() }),
]);
export type AsyncSender = z.infer<typeof asyncSenderSchema>;

/** The state the console last saw: queued (neither object in S3 yet), done (the answer), failed (the failure). */
export const asyncRequestStateSchema = z.enum(["queued", "done", "failed"]);
export type AsyncRequestState = z.infer<typeof asyncRequestStateSchema>;

/** One InvokeEndpointAsync the console sent, as `GET /api/endpoints/[name]/async-requests` lists it. */
export const asyncRequestRecordSchema = asyncInvocationSchema.extend({
  endpointName: z.string(),
  sentBy: asyncSenderSchema,
  submittedAt: z.string(),
  state: asyncRequestStateSchema,
  /** When the console last looked at S3 for this request (null: not since it was submitted). */
  checkedAt: z.string().nullable(),
});
export type AsyncRequestRecord = z.infer<typeof asyncRequestRecordSchema>;

export const asyncRequestsQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });
export const asyncRequestListSchema = z.object({ requests: z.array(asyncRequestRecordSchema) });
export type AsyncRequestList = z.infer<typeof asyncRequestListSchema>;
