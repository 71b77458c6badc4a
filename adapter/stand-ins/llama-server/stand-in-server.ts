import { randomUUID } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { parseJsonWithinDepth } from "../../src/contract/json-depth.ts";
import type { Engine } from "../../src/engine/engine.ts";
import { RequestError } from "../../src/engine/request-error.ts";
import type { RouteResponse } from "../../src/http/route.ts";
import chatRoute from "../../src/http/routes/chat.route.ts";
import modelsRoute from "../../src/http/routes/models.route.ts";

/** SageMaker's real-time payload limit; llama-server itself sets none. */
const MAX_BODY_BYTES = 6 * 1024 * 1024;

type ErrorType = "invalid_request_error" | "not_found_error" | "server_error";

/** llama-server's error body (`format_error_response` in its server): `{"error": {code, message, type}}`. */
export function llamaServerError(code: number, message: string, type: ErrorType) {
  return { error: { code, message, type } };
}

const typeOf = (status: number): ErrorType =>
  status === 404 ? "not_found_error" : status >= 500 ? "server_error" : "invalid_request_error";

function sendJson(response: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    request.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_BODY_BYTES) {
        request.destroy();
        reject(new RequestError(`request body is larger than ${MAX_BODY_BYTES} bytes`, 413));
      } else chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

async function send(response: ServerResponse, result: RouteResponse) {
  if ("body" in result) return sendJson(response, result.status, result.body);
  response.writeHead(result.status, { "content-type": result.contentType, "cache-control": "no-cache" });
  for await (const chunk of result.stream) response.write(chunk);
  response.end();
}

/**
 * The llama.cpp DLC's SageMaker surface, served by the adapter's chat API: nginx's `GET /ping` (llama-server's
 * `/health`) and `POST /invocations` (mapped to `/v1/chat/completions`), and llama-server's own `/health`,
 * `/v1/chat/completions` and `/v1/models`. It listens only once the model is loaded, as llama-server binds only
 * then. A body without `messages` (a decision, a systemone request) gets llama-server's 400; decision scoring,
 * systemone and the other llama-server APIs are not served (404, as llama-server answers an unknown path).
 */
export function createStandInServer(engine: Engine, log: (line: Record<string, unknown>) => void): http.Server {
  async function serve(request: IncomingMessage, response: ServerResponse, line: Record<string, unknown>) {
    const path = (request.url ?? "/").split("?")[0];
    const context = { engine, requestId: String(line.request_id), log: line };
    if (request.method === "GET" && (path === "/ping" || path === "/health")) {
      return sendJson(response, 200, { status: "ok" });
    }
    if (request.method === "GET" && path === "/v1/models")
      return send(response, await modelsRoute.handle(undefined, context));
    if (request.method !== "POST" || (path !== "/invocations" && path !== "/v1/chat/completions")) {
      return sendJson(response, 404, llamaServerError(404, "File Not Found", "not_found_error"));
    }
    let body: unknown;
    try {
      body = parseJsonWithinDepth((await readBody(request)).toString("utf8"));
    } catch (error) {
      const status = error instanceof RequestError ? error.status : 400;
      return sendJson(response, status, llamaServerError(status, (error as Error).message, typeOf(status)));
    }
    if (typeof body !== "object" || body === null || Array.isArray(body) || !("messages" in body)) {
      return sendJson(response, 400, llamaServerError(400, "'messages' is required", "invalid_request_error"));
    }
    await send(response, await chatRoute.handle(body, context));
  }

  return http.createServer((request, response) => {
    const started = performance.now();
    const line: Record<string, unknown> = {
      time: new Date().toISOString(),
      request_id: String(request.headers["x-amzn-requestid"] ?? randomUUID()),
      method: request.method,
      path: request.url,
    };
    serve(request, response, line)
      .catch((error: unknown) => {
        if (response.headersSent) return void response.destroy();
        if (error instanceof RequestError) {
          return sendJson(response, error.status, llamaServerError(error.status, error.message, typeOf(error.status)));
        }
        line.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
        sendJson(response, 500, llamaServerError(500, "generation failed", "server_error"));
      })
      .finally(() =>
        log({ ...line, status: response.statusCode, duration_ms: Math.round(performance.now() - started) }),
      );
  });
}
