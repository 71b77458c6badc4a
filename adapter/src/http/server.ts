import http from "node:http";
import { BUSY_ERROR } from "../contract/common.ts";
import type { AdapterConfig } from "../engine/config.ts";
import type { Engine } from "../engine/engine.ts";
import { Admission, LOADING_ERROR, PostAdmission } from "./admission.ts";
import { receiveBody } from "./body.ts";
import { RouteTable, runRoute } from "./dispatch.ts";
import { Exchange, type LogLine } from "./exchange.ts";
import { runJsonLines } from "./json-lines.ts";
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

const writeLogLine: LogLine = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

/**
 * The SageMaker container surface (DESIGN §3, §4): GET /ping, POST /invocations (routed by body shape; JSON Lines
 * bodies record by record, `json-lines.ts`) and the routes' own paths. A POST goes through three steps: admission (`admission.ts`: 415 -> Content-Length 400 ->
 * 503 before the body is read when loading, busy or out of body slots), the body (`body.ts`: 408 unless it
 * arrives within ADAPTER_BODY_TIMEOUT_MS, 400 unless JSON) and dispatch (`dispatch.ts`: the model's slot, taken
 * only now so a client still sending never holds it, 503 if it filled up meanwhile; then the route, whose errors
 * are its 4xx or 500 "scoring failed" with the cause only in the log).
 */
export function createAdapterServer({ routes, config, engine, log = writeLogLine }: ServerOptions): http.Server {
  const table = new RouteTable(routes);
  const model = new Admission(Math.max(config.maxInFlight, config.parallel));
  const admission = new PostAdmission(config, model);
  // Health checks come every few seconds, and many a second while a batch job waits for the model to load: a ping
  // is logged only when its answer differs from the last ping's (loading, then ready).
  let lastPingStatus: unknown = null;
  const logLine: LogLine = (line) => {
    if (line.route === "ping") {
      if (line.status === lastPingStatus) return;
      lastPingStatus = line.status;
    }
    log(line);
  };

  async function serve(exchange: Exchange): Promise<void> {
    const { request, path } = exchange;
    if (path === "/ping" && request.method === "GET") {
      if (engine() === null) exchange.respond(503, { status: "loading" }, "ping");
      else exchange.respond(200, { status: "ok" }, "ping");
      return;
    }
    const direct = table.direct(request.method, path);
    exchange.errorFormat = direct?.errorBody;
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
    const admitted = admission.admit(exchange, engine());
    if (!admitted) return;
    const received = await receiveBody(exchange, admitted.kind, config.bodyTimeoutMs, config.maxBodyBytes).finally(
      admitted.leaveBodySlot,
    );
    if (!received.ok) return;
    const leave = model.tryEnter();
    if (!leave) {
      exchange.respond(503, BUSY_ERROR);
      return;
    }
    // Its body's upload came first: the time it waited before holding the model, in its log line.
    exchange.line.model_wait_ms = exchange.elapsedMs;
    try {
      if (admitted.kind === "jsonlines")
        await runJsonLines(exchange, table, received.body as unknown[], admitted.engine);
      else await runRoute(exchange, direct ?? table.forInvocation(received.body), received.body, admitted.engine);
    } catch (error) {
      exchange.fail(error);
    } finally {
      leave();
    }
  }

  return http.createServer(
    {
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: HEADERS_TIMEOUT_MS + config.bodyTimeoutMs,
      connectionsCheckingInterval: 1000,
    },
    (request, response) => void serve(new Exchange(request, response, logLine, config.bodyTimeoutMs)),
  );
}
