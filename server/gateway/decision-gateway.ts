import type { SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import {
  decisionCreateSchema,
  describeIssue,
  JsonTooDeepError,
  parseJsonWithinDepth,
  parseSystemOneRequest,
  semifDefaults,
} from "@decision-console/adapter/contract";
import { ContentEncodingError, decodeRequestBody } from "@decision-console/adapter/contract/content-encoding.ts";
import { gatewayInferenceId } from "../../contract/evaluate/evaluation-traffic.ts";
import { type GatewayKey, keyMayCall } from "../../contract/gateway/keys.ts";
import { invokeErrorDetailsSchema } from "../../contract/invoke/invoke.ts";
import { isAppError } from "../http/app-error.ts";
import { readBodyWithin } from "../http/route.ts";
import { type BusyRetryPolicy, defaultBusyRetryPolicy, isBusyAnswer } from "../invoke/busy-retry.ts";
import { invokeEndpointBytes } from "../invoke/invoke.ts";
import { answering } from "../lifecycle/in-flight.ts";
import type { Store } from "../store/store.ts";
import { bearerKey } from "./api-key.ts";
import type { KeyLimits, LimitRefusal } from "./key-limits.ts";
import { authenticateGatewayKey, type KeyRefusal } from "./key-store.ts";
import type { KnownKeys } from "./known-keys.ts";
import { callIdHeaders, GatewayError, gatewayErrorResponse } from "./protocol-errors.ts";
import { recordGatewayCall } from "./usage.ts";

export type DecisionProtocol = "systemone" | "decisions";

export interface GatewayDeps {
  store: Store;
  runtime: SageMakerRuntimeClient;
  limits: KeyLimits;
  keys: KnownKeys;
  busyRetry?: BusyRetryPolicy;
}

const keyRefusals: Record<KeyRefusal, string> = {
  missing:
    "Send a gateway API key as `Authorization: Bearer <key>`; an operator creates keys on the console's Keys page.",
  unknown: "The API key is not valid.",
  revoked: "The API key was revoked; ask an operator for a new one.",
  expired: "The API key has expired; ask an operator for a new one.",
};

function presentedKey<T extends { key: GatewayKey }>(outcome: T | { refused: KeyRefusal }): T {
  if ("refused" in outcome) throw new GatewayError(401, "invalid_api_key", keyRefusals[outcome.refused]);
  return outcome;
}

/** The key a request presents, or a 401 each protocol's client raises as its authentication error. */
export async function requireGatewayKey(request: Request, store: Store): Promise<GatewayKey> {
  return presentedKey(await authenticateGatewayKey(store, bearerKey(request))).key;
}

/** The request body as JSON, refused as each protocol refuses it: 415, 413, 400 (decisions) or 422 (systemone). */
export async function readDecisionBody(request: Request, protocol: DecisionProtocol): Promise<Record<string, unknown>> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/json")) {
    throw new GatewayError(
      415,
      "unsupported_media_type",
      "Send the request body as JSON (Content-Type: application/json).",
    );
  }
  const maxBytes = semifDefaults.maxBodyBytes;
  const tooLarge = `The request body is larger than ${maxBytes} bytes, the most an endpoint accepts.`;
  const sent = await readBodyWithin(request, { maxBytes, tooLarge }).catch((error: unknown) => {
    throw isAppError(error) ? new GatewayError(error.status, "request_too_large", error.message) : error;
  });
  let bytes: Buffer;
  try {
    bytes = Buffer.from(decodeRequestBody(sent, request.headers.get("content-encoding") ?? undefined, maxBytes));
  } catch (error) {
    if (!(error instanceof ContentEncodingError)) throw error;
    const code = { 400: "invalid_content_encoding", 413: "request_too_large", 415: "unsupported_content_encoding" };
    throw new GatewayError(error.status, code[error.status], error.message);
  }
  const invalid = protocol === "systemone" ? 422 : 400;
  let body: unknown;
  try {
    body = parseJsonWithinDepth(bytes.toString("utf8"));
  } catch (error) {
    const message = error instanceof JsonTooDeepError ? error.message : "The request body is not valid JSON.";
    throw new GatewayError(invalid, "invalid_json", message);
  }
  if (protocol === "systemone") {
    const parsed = parseSystemOneRequest(body);
    if (!parsed.ok) throw new GatewayError(422, "invalid_request", "invalid request", null, { detail: parsed.detail });
    if ("input" in (body as object)) {
      throw new GatewayError(422, "invalid_request", "input is not a System One field; send state", null, {
        detail: [{ loc: ["body", "input"], msg: "Extra inputs are not permitted", type: "extra_forbidden" }],
      });
    }
  } else {
    const parsed = decisionCreateSchema.safeParse(body);
    if (!parsed.success) throw new GatewayError(400, "invalid_value", describeIssue(parsed.error.issues[0]!));
  }
  return body as Record<string, unknown>;
}

/** The endpoint a request's `model` names for this key: one of its aliases, else an endpoint's own name. */
function endpointFor(key: GatewayKey, model: string): string {
  const endpoint = key.aliases[model] ?? model;
  if (!keyMayCall(key.endpoints, endpoint)) {
    throw new GatewayError(403, "model_not_permitted", `The API key "${key.name}" may not call the model "${model}".`);
  }
  return endpoint;
}

function rateLimited(key: GatewayKey, refused: LimitRefusal): GatewayError {
  const per = refused.limit === "requests" ? "requests" : "tokens";
  return new GatewayError(
    429,
    "rate_limit_exceeded",
    `The API key "${key.name}" is at its ${per}-per-minute limit; retry in ${refused.retryAfterSeconds} s.`,
    refused.retryAfterSeconds,
  );
}

/** An InvokeEndpoint failure as the protocol's error: the container's own body where it is in that shape. */
function invokeFailure(error: unknown, protocol: DecisionProtocol, endpoint: string): GatewayError {
  if (!isAppError(error)) throw error;
  const details = invokeErrorDetailsSchema.safeParse(error.details).data;
  const body = details?.containerBody;
  if (isBusyAnswer(error.status, body)) {
    return new GatewayError(429, "endpoint_busy", `The endpoint "${endpoint}" is busy; retry the request.`, 1);
  }
  const inShape =
    typeof body === "object" &&
    body !== null &&
    (protocol === "systemone" ? "detail" in body : typeof (body as { error?: unknown }).error === "object");
  if (error.status === 404) return new GatewayError(404, "model_not_found", `No endpoint is named "${endpoint}".`);
  return new GatewayError(error.status, error.code, error.message, null, inShape ? body : undefined);
}

function tokensOf(answer: unknown): { input: number; output: number } {
  const usage = (answer as { usage?: { input_tokens?: unknown; output_tokens?: unknown } }).usage;
  const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : 0);
  return { input: count(usage?.input_tokens), output: count(usage?.output_tokens) };
}

/**
 * Store writes that follow an answer (the call's usage row, the tokens it used): started once the answer has been
 * handed over (even building a query takes a fraction of a millisecond), not awaited by it, and counted as in flight
 * from now on, so a console shutting down waits for them.
 */
function afterAnswer(write: () => Promise<void>): void {
  answering(async () => {
    await new Promise((resolve) => setImmediate(resolve));
    await write();
  }).catch((error: unknown) => {
    console.error(JSON.stringify({ level: "error", msg: "gateway.usage_not_recorded", error: String(error) }));
  });
}

/**
 * `POST /v1/systemone` and `POST /v1/decisions` for applications: the key (401), the body in the protocol's shape,
 * the key's scope (403) and limits (429 with Retry-After), then InvokeEndpoint with the console's credentials and a
 * fresh inference id, which the answer carries as `x_inference_id` and the `x-inference-id` header. The key and its
 * limits cost the store one statement before InvokeEndpoint (a key's first call on this process reads it first).
 * Every call past authentication is recorded with its status, tokens and latency, after its answer (`afterAnswer`).
 */
export async function serveDecision(
  request: Request,
  protocol: DecisionProtocol,
  deps: GatewayDeps,
): Promise<Response> {
  const started = performance.now();
  const inferenceId = gatewayInferenceId();
  let key: GatewayKey | null = null;
  let endpoint: string | null = null;
  const record = (status: number, tokens = { input: 0, output: 0 }) => {
    if (!key) return;
    const call = {
      keyId: key.id,
      endpointName: endpoint,
      protocol,
      status,
      inputTokens: tokens.input,
      outputTokens: tokens.output,
      latencyMs: Math.round((performance.now() - started) * 100) / 100,
      inferenceId,
      atMs: Date.now(),
    };
    afterAnswer(() => recordGatewayCall(deps.store, call));
  };
  try {
    const secret = bearerKey(request);
    let presented = presentedKey(await deps.keys.presented(secret));
    key = presented.key;
    // A key this process read on an earlier call is proven by the statement that admits this one. A refusal before
    // that statement, or its finding the key changed, reads the key again: a revoked key is refused as such (401,
    // as when it is read first), and a changed one is judged as it is now.
    const readAgain = async () => {
      key = null;
      presented = presentedKey(await deps.keys.read(secret));
      key = presented.key;
    };
    const body = await readDecisionBody(request, protocol).catch(async (error: unknown) => {
      if (!presented.readNow) await readAgain();
      throw error;
    });
    const model = body.model as string;
    const admission = async (): Promise<LimitRefusal | "key-changed" | null> => {
      try {
        endpoint = endpointFor(presented.key, model);
      } catch (error) {
        if (presented.readNow) throw error;
        return "key-changed";
      }
      return deps.limits.admit(presented.key);
    };
    let refused = await admission();
    for (let reads = 1; refused === "key-changed"; reads++) {
      if (reads > 2) {
        throw new GatewayError(
          503,
          "unavailable",
          "The API key changed while the call was admitted; send it again.",
          1,
        );
      }
      await readAgain();
      refused = await admission();
    }
    if (refused) throw rateLimited(presented.key, refused);
    const admitted = { key: presented.key, endpoint: endpointFor(presented.key, model) };
    const answer = await invokeEndpointBytes(
      deps.runtime,
      admitted.endpoint,
      body,
      deps.busyRetry ?? defaultBusyRetryPolicy,
      undefined,
      inferenceId,
    ).catch((error: unknown) => {
      throw invokeFailure(error, protocol, admitted.endpoint);
    });
    const decided = JSON.parse(new TextDecoder().decode(answer.bytes)) as Record<string, unknown>;
    const tokens = tokensOf(decided);
    afterAnswer(() => deps.limits.charge(admitted.key, tokens.input + tokens.output));
    record(200, tokens);
    return Response.json({ ...decided, x_inference_id: inferenceId }, { headers: callIdHeaders(inferenceId) });
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    record(error.status);
    return gatewayErrorResponse(protocol, error, inferenceId);
  }
}
