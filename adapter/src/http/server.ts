import { randomUUID } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { BUSY_ERROR, type ErrorBody, SCORING_FAILED_ERROR } from "../contract/common.ts";
import type { Engine } from "../engine/engine.ts";
import { RequestError } from "../engine/request-error.ts";
import { Admission } from "./admission.ts";
import type { Route, RouteResponse } from "./route.ts";

export type ServerOptions = {
  routes: readonly Route[];
  maxBodyBytes: number;
  /** Requests that may hold the model at once, running or queued (max of SEMIF_MAX_IN_FLIGHT, ADAPTER_PARALLEL). */
  maxInFlight: number;
  /** The engine once loaded and warmed up; null while loading. */
  engine: () => Engine | null;
  log?: (line: Record<string, unknown>) => void;
  /** How long a client may take to send its request; bounds how long a stalled client holds an admission slot. */
  bodyTimeoutMs?: number;
};

const REQUEST_BODY_TIMEOUT_MS = 30_000;

const writeLogLine = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}

function readBody(request: IncomingMessage, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    request.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received > length) {
        reject(new RequestError(`Content-Length must be between 1 and ${length} bytes`));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
    // A client that stops sending is dropped by the server's request timeout; it never held the model's slot.
    request.on("close", () => reject(new RequestError("Request body ended before Content-Length bytes arrived")));
  });
}

function isJsonContentType(header: string | undefined): boolean {
  return (header ?? "").split(";")[0]!.trim().toLowerCase() === "application/json";
}

/**
 * The SageMaker container surface (DESIGN §3, §4): GET /ping, POST /invocations (routed by body shape) and the
 * routes' own paths. POST checks run in SemIf's order: 415 -> Content-Length -> admission 503 (before the body
 * is read, when the model is busy) -> body -> route (shape, reserved tokens, budget) -> 500 "scoring failed" with
 * the cause only in the log. The slot is taken after the body arrived (503 if it filled up meanwhile).
 */
export function createAdapterServer(options: ServerOptions): http.Server {
  const admission = new Admission(options.maxInFlight);
  // Bodies being received at once: each is at most maxBodyBytes, so this bounds the memory slow uploads can take.
  const maxBodyReaders = Math.max(8, 4 * options.maxInFlight);
  let bodyReaders = 0;
  const log = options.log ?? writeLogLine;
  const postPaths = new Map<string, Route>();
  const getPaths = new Map<string, Route>();
  for (const route of options.routes) {
    for (const path of route.paths) (route.method === "GET" ? getPaths : postPaths).set(path, route);
  }
  const invocationRoutes = options.routes.filter((route) => route.method === "POST" && route.matchesInvocation);
  const invocationDefault = options.routes.find((route) => route.invocationDefault);

  const bodyTimeoutMs = options.bodyTimeoutMs ?? REQUEST_BODY_TIMEOUT_MS;
  const server = http.createServer(
    { requestTimeout: bodyTimeoutMs, connectionsCheckingInterval: Math.min(1000, bodyTimeoutMs) },
    async (request, response) => {
      const started = performance.now();
      const requestId = String(request.headers["x-request-id"] ?? request.headers["x-amzn-requestid"] ?? randomUUID());
      const path = (request.url ?? "/").split("?")[0]!;
      const line: Record<string, unknown> = { time: new Date().toISOString(), request_id: requestId };
      line.method = request.method;
      line.path = path;
      const finish = (status: number, route?: string) => {
        log({
          ...line,
          route: route ?? null,
          status,
          duration_ms: Math.round((performance.now() - started) * 100) / 100,
        });
      };
      const respond = (status: number, body: ErrorBody | Record<string, unknown>, route?: string) => {
        sendJson(response, status, body, { "x-request-id": requestId });
        finish(status, route);
      };

      if (path === "/ping" && request.method === "GET") {
        if (options.engine() === null) respond(503, { status: "loading" }, "ping");
        else respond(200, { status: "ok" }, "ping");
        return;
      }
      const direct = request.method === "GET" ? getPaths.get(path) : postPaths.get(path);
      if (path !== "/invocations" && !direct) {
        respond(404, { error: `no route for ${request.method} ${path}` });
        return;
      }
      if (request.method === "GET" && direct) {
        const engine = options.engine();
        if (!engine) return respond(503, { error: "model is loading; retry the request", retryable: true });
        return runRoute(direct, undefined, engine);
      }
      if (request.method !== "POST") {
        respond(405, { error: `${request.method} is not allowed on ${path}` });
        return;
      }
      if (!isJsonContentType(request.headers["content-type"])) {
        respond(415, { error: "Content-Type must be application/json" });
        return;
      }
      const length = Number(request.headers["content-length"]);
      if (!Number.isInteger(length) || length < 1 || length > options.maxBodyBytes) {
        respond(400, { error: `Content-Length must be between 1 and ${options.maxBodyBytes} bytes` });
        request.resume();
        return;
      }
      const engine = options.engine();
      if (!engine || admission.isFull || bodyReaders >= maxBodyReaders) {
        respond(503, engine ? BUSY_ERROR : { error: "model is loading; retry the request", retryable: true });
        request.resume();
        return;
      }
      let body: unknown;
      bodyReaders++;
      try {
        const text = (await readBody(request, length)).toString("utf8");
        body = JSON.parse(text);
      } catch (error) {
        fail(
          error instanceof RequestError
            ? error
            : new RequestError(`Request body is not valid JSON: ${(error as Error).message}`),
        );
        return;
      } finally {
        bodyReaders--;
      }
      // Entered only now: a client still sending its body never holds the model's slot.
      const leave = admission.tryEnter();
      if (!leave) {
        respond(503, BUSY_ERROR);
        return;
      }
      try {
        const route =
          direct ??
          (typeof body === "object" && body !== null && !Array.isArray(body)
            ? invocationRoutes.find((candidate) => candidate.matchesInvocation!(body as Record<string, unknown>))
            : undefined) ??
          invocationDefault;
        if (!route) throw new RequestError("Request body matches no API of this adapter");
        await runRoute(route, body, engine);
      } catch (error) {
        fail(error);
      } finally {
        leave();
      }

      async function runRoute(route: Route, body: unknown, engine: Engine) {
        try {
          const result = await route.handle(body, { engine, requestId, log: line });
          await send(result, route.name);
        } catch (error) {
          fail(error, route.name);
        }
      }

      /** Resolves when the answer is fully written, so a stream holds its admission slot until it ends. */
      async function send(result: RouteResponse, route: string) {
        const headers = { ...result.headers, "x-request-id": requestId };
        if ("body" in result) {
          sendJson(response, result.status, result.body, headers);
          finish(result.status, route);
          return;
        }
        response.writeHead(result.status, {
          ...headers,
          "content-type": result.contentType,
          "cache-control": "no-cache",
        });
        try {
          for await (const chunk of result.stream) response.write(chunk);
          response.end();
        } catch (error) {
          line.error = (error as Error).message;
          response.destroy();
        } finally {
          finish(result.status, route);
        }
      }

      function fail(error: unknown, route?: string) {
        if (response.headersSent) return;
        if (error instanceof RequestError) {
          respond(error.status, { error: error.message }, route);
          return;
        }
        line.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
        respond(500, SCORING_FAILED_ERROR, route);
      }
    },
  );
  return server;
}
