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

export function gatewayErrorResponse(protocol: GatewayProtocol, error: GatewayError, inferenceId?: string): Response {
  const headers = new Headers({ "content-type": "application/json" });
  if (error.retryAfterSeconds !== null) headers.set("retry-after", String(error.retryAfterSeconds));
  if (inferenceId) headers.set("x-inference-id", inferenceId);
  return new Response(JSON.stringify(gatewayErrorBody(protocol, error)), { status: error.status, headers });
}
