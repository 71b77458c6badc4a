import http, { type IncomingMessage } from "node:http";
import { BUSY_ERROR, type ErrorBody } from "../contract/common.ts";
import type { AdapterConfig } from "../engine/config.ts";
import type { Engine } from "../engine/engine.ts";
import { Admission } from "./admission.ts";
import { parseJsonBody, readBody } from "./body.ts";
import { BodyReaders } from "./body-readers.ts";
import { RouteTable, runRoute } from "./dispatch.ts";
import { Exchange, type LogLine } from "./exchange.ts";
import type { Route } from "./route.ts";

export type ServerOptions = {
  routes: readonly Route[];
  config: Pick<
    AdapterConfig,
    "maxBodyBytes" | "maxInFlight" | "parallel" | "bodyTimeoutMs" | "maxBodyReaders" | "maxBodyReadersPerPeer"
  >;
  /** The engine once loaded and warmed up; null while loading. */
  engine: () => Engine | null;
  log?: LogLine;
};

/** How long a client may take to send its headers (a client trickling them holds a connection, never a slot). */
const HEADERS_TIMEOUT_MS = 10_000;

const LOADING_ERROR: ErrorBody = { error: "model is loading; retry the request", retryable: true };

const writeLogLine: LogLine = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

function isJsonContentType(header: string | undefined): boolean {
  return (header ?? "").split(";")[0]!.trim().toLowerCase() === "application/json";
}

/**
 * The SageMaker container surface (DESIGN §3, §4): GET /ping, POST /invocations (routed by body shape) and the
 * routes' own paths. POST checks run in SemIf's order: 415 -> Content-Length -> admission 503 (before the body
 * is read, when the model is busy, or every body slot or this client's share of them is taken) -> body (408 when
 * it does not arrive within ADAPTER_BODY_TIMEOUT_MS) -> route (shape, reserved tokens, budget) -> 500 "scoring
 * failed" with the cause only in the log. The model's slot is taken after the body arrived (503 if it filled up
 * meanwhile), so a client still sending its body never holds it.
 */
export function createAdapterServer({ routes, config, engine, log = writeLogLine }: ServerOptions): http.Server {
  const table = new RouteTable(routes);
  const admission = new Admission(Math.max(config.maxInFlight, config.parallel));
  const bodyReaders = new BodyReaders(config.maxBodyReaders, config.maxBodyReadersPerPeer);

  async function serve(exchange: Exchange): Promise<void> {
    const { request, path } = exchange;
    if (path === "/ping" && request.method === "GET") {
      if (engine() === null) exchange.respond(503, { status: "loading" }, "ping");
      else exchange.respond(200, { status: "ok" }, "ping");
      return;
    }
    const direct = table.direct(request.method, path);
    if (path !== "/invocations" && !direct) {
      exchange.respond(404, { error: `no route for ${request.method} ${path}` });
      return;
    }
    if (request.method === "GET" && direct) {
      const loaded = engine();
      if (!loaded) return exchange.respond(503, LOADING_ERROR);
      return runRoute(exchange, direct, undefined, loaded);
    }
    if (request.method !== "POST") {
      exchange.respond(405, { error: `${request.method} is not allowed on ${path}` });
      return;
    }
    if (!transportAccepted(exchange)) return;
    const loaded = engine();
    const leaveReaders = loaded && !admission.isFull ? bodyReaders.tryEnter(peerOf(request)) : null;
    if (!loaded || !leaveReaders) {
      exchange.respond(503, loaded ? BUSY_ERROR : LOADING_ERROR);
      return;
    }
    let body: unknown;
    try {
      body = parseJsonBody(await readBody(request, config.bodyTimeoutMs));
    } catch (error) {
      exchange.fail(error);
      return;
    } finally {
      leaveReaders();
    }
    const leave = admission.tryEnter();
    if (!leave) {
      exchange.respond(503, BUSY_ERROR);
      return;
    }
    try {
      await runRoute(exchange, direct ?? table.forInvocation(body), body, loaded);
    } catch (error) {
      exchange.fail(error);
    } finally {
      leave();
    }
  }

  /** Answers 415 unless the body is JSON, 400 unless Content-Length is 1..SEMIF_MAX_BODY_BYTES. */
  function transportAccepted(exchange: Exchange): boolean {
    const { headers } = exchange.request;
    if (!isJsonContentType(headers["content-type"])) {
      exchange.respond(415, { error: "Content-Type must be application/json" });
      return false;
    }
    const length = Number(headers["content-length"]);
    if (!Number.isInteger(length) || length < 1 || length > config.maxBodyBytes) {
      exchange.respond(400, { error: `Content-Length must be between 1 and ${config.maxBodyBytes} bytes` });
      return false;
    }
    return true;
  }

  return http.createServer(
    {
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: HEADERS_TIMEOUT_MS + config.bodyTimeoutMs,
      connectionsCheckingInterval: 1000,
    },
    (request, response) => void serve(new Exchange(request, response, log, config.bodyTimeoutMs)),
  );
}

function peerOf(request: IncomingMessage): string {
  return request.socket.remoteAddress ?? "unknown";
}
