import { ZodError, type ZodType, type z } from "zod";
import { AppError } from "./app-error.ts";

export interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

export function errorResponse(error: AppError): Response {
  const body: ErrorBody = { error: { code: error.code, message: error.message, details: error.details } };
  return Response.json(body, { status: error.status });
}

/** 429 with `Retry-After`, so clients (and people) know when to try again. */
export function rateLimitedResponse(message: string, retryAfterSeconds: number): Response {
  const response = errorResponse(new AppError("rate_limited", message));
  response.headers.set("Retry-After", String(retryAfterSeconds));
  return response;
}

/** Turns a zod failure into one readable sentence with field paths, e.g. `instanceCount: must be at least 1`. */
export function describeZodError(error: ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message))
    .join("; ");
}

export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ZodError) return new AppError("bad_request", describeZodError(error));
  console.error(JSON.stringify({ level: "error", msg: "unhandled route error", error: String(error) }));
  return new AppError("internal", "Something went wrong on the server; the error was logged.");
}

/** Wraps a route handler so every thrown error becomes a JSON `{error: {code, message}}` response. */
export function route<Args extends unknown[]>(
  handler: (request: Request, ...args: Args) => Promise<Response>,
): (request: Request, ...args: Args) => Promise<Response> {
  return async (request, ...args) => {
    try {
      return await handler(request, ...args);
    } catch (error) {
      return errorResponse(toAppError(error));
    }
  };
}

/** Reads and validates a JSON body; a non-JSON body is a 400 (or 415 for the wrong content type). */
export async function readJson<S extends ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/json")) {
    throw new AppError("unsupported_media_type", "Send the request body as JSON (Content-Type: application/json).");
  }
  let raw: unknown;
  try {
    raw = await request.json();
  } catch {
    throw new AppError("bad_request", "The request body is not valid JSON.");
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new AppError("bad_request", describeZodError(parsed.error));
  return parsed.data;
}
