import { randomUUID } from "node:crypto";
import { openAiError, systemOneError } from "@decision-console/adapter/contract";
import type { GatewayProtocol } from "../../contract/gateway/gateway-api.ts";

/** A refusal or failure the gateway answers, with the status and code its protocol's clients read. */
export class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfterSeconds: number | null = null,
    /** A body already in the protocol's shape (a validation failure's `detail[]`, the container's own error). */
    readonly body: unknown = undefined,
  ) {
    super(message);
    this.name = "GatewayError";
  }
}

/** OpenAI's `error.type` for a status, as its API answers them. */
function openAiType(status: number): string {
  if (status === 429) return "rate_limit_error";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

/**
 * The body of a gateway error: TypeSafe's `{"detail": {error_type, message}}` on `/v1/systemone` (typesafe-sdk reads
 * `detail.message`), OpenAI's `{"error": {message, type, param, code}}` on `/v1/decisions` and `/v1/models` (which
 * both clients read: typesafe-sdk takes `error.message` first).
 */
export function gatewayErrorBody(protocol: GatewayProtocol, error: GatewayError): unknown {
  if (error.body !== undefined) return error.body;
  if (protocol === "systemone") return systemOneError(error.code, error.message);
  const body = openAiError(error.message, error.code);
  return { error: { ...body.error, type: openAiType(error.status) } };
}

/**
 * The headers naming one gateway call: the inference id the capture and the labels join on, and the same id as the
 * request id each official client reads from the answer (`x-request-id`: openai's `_request_id`;
 * `x-typesafe-request-id`: typesafe-sdk's `request_id`, which raises when the header is missing). The adapter's
 * own request id cannot travel back: InvokeEndpoint does not pass the container's headers on.
 */
export function callIdHeaders(inferenceId: string): Record<string, string> {
  return { "x-inference-id": inferenceId, ...requestIdHeaders(inferenceId) };
}

function requestIdHeaders(requestId: string): Record<string, string> {
  return { "x-request-id": requestId, "x-typesafe-request-id": requestId };
}

export function gatewayErrorResponse(protocol: GatewayProtocol, error: GatewayError, inferenceId?: string): Response {
  const headers = new Headers({ "content-type": "application/json" });
  if (error.retryAfterSeconds !== null) headers.set("retry-after", String(error.retryAfterSeconds));
  const ids = inferenceId ? callIdHeaders(inferenceId) : requestIdHeaders(randomUUID());
  for (const [name, value] of Object.entries(ids)) headers.set(name, value);
  return new Response(JSON.stringify(gatewayErrorBody(protocol, error)), { status: error.status, headers });
}
