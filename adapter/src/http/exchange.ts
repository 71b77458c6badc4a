import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type ErrorBody, SCORING_FAILED_ERROR } from "../contract/common.ts";
import { RequestError } from "../engine/request-error.ts";
import { answerBeforeBody } from "./early-answer.ts";
import type { ErrorBodyFormat, RouteResponse } from "./route.ts";

export type LogLine = (line: Record<string, unknown>) => void;

/** The kind of each refusal answered before a route runs, for protocols whose error bodies name one. */
const REFUSAL_CODES: Record<number, string> = {
  400: "invalid_request",
  404: "not_found",
  405: "method_not_allowed",
  408: "request_timeout",
  415: "unsupported_media_type",
  503: "server_busy",
};

/**
 * The request id on every answer: as `x-request-id`, and as `x-typesafe-request-id`, the header `typesafe-sdk`
 * reads into a response's and an error's `request_id` (its transport also logs it).
 */
const requestIdHeaders = (requestId: string) => ({ "x-request-id": requestId, "x-typesafe-request-id": requestId });

/**
 * On every 503 (loading, busy, out of body slots): when to ask again, in whole seconds (RFC 9110 10.2.3). The
 * official clients wait for it before their retry (`typesafe-sdk` and `openai` read `retry-after`).
 */
const RETRY_LATER = { "retry-after": "1" };

/**
 * One request and its answer: the request id, the log line written once it is answered, JSON answers, errors
 * (a RequestError's status and message; anything else 500 "scoring failed", the cause only in the log) and streams.
 */
export class Exchange {
  readonly requestId: string;
  readonly path: string;
  /** Fields of this request's log line; routes add theirs (tokens, timings...). */
  readonly line: Record<string, unknown>;
  private readonly started: number;

  constructor(
    readonly request: IncomingMessage,
    private readonly response: ServerResponse,
    private readonly log: LogLine,
    private readonly lingerMs: number,
  ) {
    // Read together, so `time` plus a duration is the moment on the wall clock: work between the two reads (a
    // preempted thread on a loaded host) would shift every figure the log line adds up.
    const arrived = new Date();
    this.started = performance.now();
    this.requestId = String(request.headers["x-request-id"] ?? request.headers["x-amzn-requestid"] ?? randomUUID());
    this.path = (request.url ?? "/").split("?")[0]!;
    this.line = { time: arrived.toISOString(), request_id: this.requestId, method: request.method, path: this.path };
  }

  /** Milliseconds since the request arrived, to the hundredth. */
  get elapsedMs(): number {
    return Math.round((performance.now() - this.started) * 100) / 100;
  }

  /**
   * The error body of the route this request's path names, once known (`/v1/systemone`, `/v1/decisions`): refusals
   * before the route runs (415, Content-Length, busy, body not JSON) then reach its clients in their own shape.
   */
  errorFormat: ErrorBodyFormat | undefined;

  respond(status: number, body: ErrorBody | Record<string, unknown>, route?: string): void {
    const refused = status >= 400 && this.errorFormat && typeof body.error === "string";
    const sent = refused
      ? this.errorFormat!(status, body.error as string, REFUSAL_CODES[status] ?? "invalid_request")
      : body;
    this.sendJson(status, sent, status === 503 ? RETRY_LATER : {});
    this.finish(status, route);
  }

  fail(error: unknown, route?: string, routeFormat?: ErrorBodyFormat): void {
    if (this.response.headersSent) return;
    const format = routeFormat ?? this.errorFormat;
    if (error instanceof RequestError) {
      const body = format ? format(error.status, error.message, error.code) : { error: error.message };
      this.respond(error.status, body, route);
      return;
    }
    this.line.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
    this.respond(500, format ? format(500, SCORING_FAILED_ERROR.error, "internal_error") : SCORING_FAILED_ERROR, route);
  }

  /** Resolves when the answer is fully written, so a stream holds its admission slot until it ends. */
  async send(result: RouteResponse, route: string): Promise<void> {
    if ("body" in result) {
      this.sendJson(result.status, result.body, result.headers ?? {});
      this.finish(result.status, route);
      return;
    }
    this.response.writeHead(result.status, {
      ...result.headers,
      ...requestIdHeaders(this.requestId),
      "content-type": result.contentType,
      "cache-control": "no-cache",
    });
    try {
      for await (const chunk of result.stream) this.response.write(chunk);
      this.response.end();
    } catch (error) {
      this.line.error = (error as Error).message;
      this.response.destroy();
    } finally {
      this.finish(result.status, route);
    }
  }

  /** A complete text answer of another media type (JSON Lines). */
  sendText(status: number, text: string, contentType: string, route: string): void {
    this.writeText(status, text, contentType, {});
    this.finish(status, route);
  }

  private sendJson(status: number, body: unknown, headers: Record<string, string>): void {
    this.writeText(status, JSON.stringify(body), "application/json", headers);
  }

  private writeText(status: number, text: string, contentType: string, headers: Record<string, string>): void {
    const all = {
      ...headers,
      ...requestIdHeaders(this.requestId),
      "content-type": contentType,
      "content-length": Buffer.byteLength(text),
    };
    if (this.request.complete || this.request.destroyed) {
      this.response.writeHead(status, all);
      this.response.end(text);
    } else {
      answerBeforeBody(this.request, this.response, status, all, text, this.lingerMs);
    }
  }

  private finish(status: number, route?: string): void {
    this.log({
      ...this.line,
      route: route ?? null,
      status,
      duration_ms: this.elapsedMs,
    });
  }
}
