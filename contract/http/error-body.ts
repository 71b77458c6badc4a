import { z } from "zod";

/** Every error code a console route answers with, and its HTTP status. */
export const errorStatus = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  upstream: 502,
  unavailable: 503,
  upstream_timeout: 504,
} as const;
export type ErrorCode = keyof typeof errorStatus;

/**
 * The body of every failed console route: a stable code, a message a person can act on, and details where the
 * route has more to say (a failed invoke: `invokeErrorDetailsSchema`; a bad dataset: the rows' errors).
 */
export const consoleErrorBodySchema = z.object({
  error: z.object({
    code: z.enum(Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type ConsoleErrorBody = z.infer<typeof consoleErrorBodySchema>;
