import type { Engine } from "../engine/engine.ts";

/** A JSON answer, or a text stream (server-sent events) for routes that generate. */
export type RouteResponse =
  | { status: number; body: unknown; headers?: Record<string, string> }
  | { status: number; stream: AsyncIterable<string>; contentType: string; headers?: Record<string, string> };

export type RouteContext = {
  engine: Engine;
  requestId: string;
  /** Fields added to the request's log line (tokens, timings...). */
  log: Record<string, unknown>;
};

/**
 * One API of the adapter. Every file under `src/http/routes/` named `*.route.ts` default-exports a Route (or a
 * list of them) and is picked up at start, so an API is added by adding a file. POST routes pass the shared
 * checks first (415, Content-Length, admission 503) and receive the parsed JSON body.
 */
export type Route = {
  name: string;
  method: "GET" | "POST";
  /** Paths served directly, e.g. "/v1/systemone". */
  paths: readonly string[];
  /** For POST /invocations: whether this route takes a body of this shape (e.g. has `questions`). */
  matchesInvocation?: (body: Record<string, unknown>) => boolean;
  /** The route /invocations falls back to when no route claims the body (the decision API, for SemIf parity). */
  invocationDefault?: boolean;
  handle(body: unknown, context: RouteContext): Promise<RouteResponse>;
  /**
   * The route's own error body for a refusal (status, message and kind of a RequestError, or 500 "scoring failed"),
   * for protocols whose clients read another shape than `{"error": string}`.
   */
  errorBody?: ErrorBodyFormat;
};

export type ErrorBodyFormat = (status: number, message: string, code: string) => Record<string, unknown>;
