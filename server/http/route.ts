import { JsonTooDeepError, MAX_JSON_DEPTH, parseJsonWithinDepth } from "@decision-console/adapter/contract";
import { ZodError, type ZodType, type z } from "zod";
import type { ApiRoute } from "../../contract/api.ts";
import type { ConsoleErrorBody } from "../../contract/http/error-body.ts";
import { plainIssueText } from "../../contract/http/plain-issues.ts";
import { answering, isDraining } from "../lifecycle/in-flight.ts";
import { AppError, isAppError } from "./app-error.ts";

export function errorResponse(error: AppError): Response {
  const body: ConsoleErrorBody = { error: { code: error.code, message: error.message, details: error.details } };
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

/** By brand and name, not class identity: the error may come from another bundle's copy of the module (app-error.ts). */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  if (isZodError(error)) return new AppError("bad_request", describeZodError(error));
  console.error(JSON.stringify({ level: "error", msg: "unhandled route error", error: String(error) }));
  return new AppError("internal", "Something went wrong on the server; the error was logged.");
}

function isZodError(error: unknown): error is ZodError {
  return (
    error instanceof ZodError ||
    ((error as { name?: unknown } | null)?.name === "ZodError" && Array.isArray((error as ZodError).issues))
  );
}

/** Wraps a route handler so every thrown error becomes a JSON `{error: {code, message}}` response. */
export function route<Args extends unknown[]>(
  handler: (request: Request, ...args: Args) => Promise<Response>,
): (request: Request, ...args: Args) => Promise<Response> {
  return async (request, ...args) => {
    if (isDraining()) {
      return errorResponse(
        new AppError("unavailable", "This console process is shutting down; send the request again."),
      );
    }
    return answering(async () => {
      try {
        return await handler(request, ...args);
      } catch (error) {
        return errorResponse(toAppError(error));
      }
    });
  };
}

/** A route's JSON answer, typed by its contract entry (contract/api.ts), with the entry's status unless overridden. */
export function reply<R extends ApiRoute & { response: ZodType }>(
  route: R,
  body: z.output<R["response"]>,
  init: ResponseInit = {},
): Response {
  return Response.json(body, { status: route.status, ...init });
}

/** The query string read with the route's contract schema; a parameter that does not fit is a 400 naming it. */
export function readQuery<R extends ApiRoute & { query: ZodType }>(request: Request, route: R): z.output<R["query"]> {
  return route.query.parse(Object.fromEntries(new URL(request.url).searchParams)) as z.output<R["query"]>;
}

/** The most bytes a route reads of a body, and the 413 message past them. */
export interface BodyLimit {
  maxBytes: number;
  tooLarge: string;
}

/** JSON request bodies larger than 1 MiB are refused; a route that takes more passes its own limit. */
const JSON_BODY_LIMIT: BodyLimit = { maxBytes: 1024 * 1024, tooLarge: "The request body is larger than 1 MiB." };

/**
 * The body's bytes, counted as they arrive: 413 with `tooLarge` once they pass `maxBytes`, whatever
 * Content-Length says or when there is none (chunked uploads).
 */
export async function readBodyWithin(request: Request, limit: BodyLimit): Promise<Buffer<ArrayBuffer>> {
  const { maxBytes, tooLarge } = limit;
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) throw new AppError("payload_too_large", tooLarge);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body?.getReader();
  for (;;) {
    const next = await reader?.read();
    if (!next || next.done) break;
    size += next.value.byteLength;
    if (size > maxBytes) {
      await reader?.cancel();
      throw new AppError("payload_too_large", tooLarge);
    }
    chunks.push(next.value);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads and validates a JSON body: 415 for the wrong content type, 413 over `maxBytes`, 400 for text that is not
 * JSON, nests deeper than MAX_JSON_DEPTH or does not fit `schema`.
 */
export async function readJson<S extends ZodType>(
  request: Request,
  schema: S,
  limit: BodyLimit = JSON_BODY_LIMIT,
): Promise<z.output<S>> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/json")) {
    throw new AppError("unsupported_media_type", "Send the request body as JSON (Content-Type: application/json).");
  }
  const text = (await readBodyWithin(request, limit)).toString("utf8");
  let raw: unknown;
  try {
    raw = parseJsonWithinDepth(text);
  } catch (error) {
    if (error instanceof JsonTooDeepError) {
      throw new AppError(
        "bad_request",
        `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
      );
    }
    throw new AppError("bad_request", "The request body is not valid JSON.");
  }
  const parsed = schema.safeParse(raw, { error: plainIssueText });
  if (!parsed.success) throw new AppError("bad_request", describeZodError(parsed.error));
  return parsed.data;
}
