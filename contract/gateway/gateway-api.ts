import {
  decisionCreateSchema,
  modelListSchema,
  openAiDecisionSchema,
  systemOneRequestSchema,
  systemOneResponseSchema,
} from "@decision-console/adapter/contract";
import { z } from "zod";

/** The decision gateway's routes; each answers its errors in its own protocol's body. */
export type GatewayProtocol = "systemone" | "decisions" | "models";

/** OpenAI's error body, which `/v1/decisions` and `/v1/models` answer (and typesafe-sdk reads too). */
export const openAiErrorBodySchema = z.object({
  error: z.object({
    message: z.string(),
    type: z.string(),
    param: z.string().nullable(),
    code: z.string().nullable(),
  }),
});

/** TypeSafe's error body: a 422's `detail[]` of failed fields, else `detail: {error_type, message}`. */
export const systemOneErrorBodySchema = z.object({
  detail: z.union([
    z.array(z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string(), type: z.string() })),
    z.object({ error_type: z.string(), message: z.string() }),
  ]),
});

export const gatewayErrorBodies: Record<GatewayProtocol, z.ZodType> = {
  systemone: systemOneErrorBodySchema,
  decisions: openAiErrorBodySchema,
  models: openAiErrorBodySchema,
};

const inferenceId = {
  x_inference_id: z
    .string()
    .describe("The id sent to SageMaker as InvokeEndpoint's InferenceId; also the x-inference-id header."),
};

export interface GatewayRoute {
  method: "GET" | "POST";
  /** In the app directory's notation, as contract/api.ts writes its routes. */
  path: string;
  protocol: GatewayProtocol;
  summary: string;
  /** The JSON request body. */
  body?: z.ZodType;
  /** The JSON answer at 200. */
  response: z.ZodType;
  /** Each status the route answers in its protocol's error body, and when. */
  errors: Readonly<Record<number, string>>;
}

/** Statuses every gateway route may answer: the key, the store or AWS failing, a console shutting down. */
const keyAndOutages = {
  401: "`invalid_api_key`: no key, an unknown or wrong key, a revoked or expired key.",
  500: "`internal`: a defect in the console (logged).",
  502: "`upstream`: AWS or the endpoint's container failed (its own error body passed on where it is in this shape).",
  503: "`unavailable`: AWS or the endpoint is unavailable, or this console process is shutting down (Retry-After).",
  504: "`upstream_timeout`: AWS or the endpoint did not answer in time.",
} as const;

/** Statuses of the two decision routes, besides the invalid body each protocol words its own way. */
const decisionErrors = {
  ...keyAndOutages,
  403: "`model_not_permitted`: `model` names an endpoint outside the key's endpoints.",
  404: "`model_not_found`: no endpoint has that name.",
  413: "`request_too_large`: a body over 262,144 bytes, compressed or decoded.",
  415: "`unsupported_media_type`, `unsupported_content_encoding`: a body that is not JSON, or another encoding than zstd.",
  429: "`rate_limit_exceeded`: the key at its requests or tokens per minute; `endpoint_busy`: the endpoint stayed busy. Retry-After says when to retry.",
} as const;

/**
 * The decision gateway (docs/gateway.md): the routes under `app/v1` that applications call with a gateway API key
 * (`Authorization: Bearer`), in the adapter's protocols. docs/openapi.json and docs/api-routes.md list them beside
 * the console's own routes (contract/api.ts), and a test fails when a handler under app/v1 is missing here.
 */
export const gatewayApi = {
  systemOne: {
    method: "POST",
    path: "/v1/systemone",
    protocol: "systemone",
    summary:
      "TypeSafe's System One: answers keyed by question id (noul, choice, score) from the endpoint `model` names (an endpoint the key may call, or one of its aliases), with `usage` and the call's inference id.",
    body: systemOneRequestSchema,
    response: systemOneResponseSchema.extend(inferenceId),
    errors: {
      ...decisionErrors,
      400: "`invalid_content_encoding`: a zstd body that does not decode.",
      422: "`detail[]`: a body that fails System One's validation; `invalid_json`: a body that is not JSON.",
    },
  },
  decisions: {
    method: "POST",
    path: "/v1/decisions",
    protocol: "decisions",
    summary:
      "OpenAI's Decisions (`client.decisions.create`): answers in question order (predicate, choice, score) from the endpoint `model` names (an endpoint the key may call, or one of its aliases), with `usage` and the call's inference id.",
    body: decisionCreateSchema,
    response: openAiDecisionSchema.extend(inferenceId),
    errors: {
      ...decisionErrors,
      400: "`invalid_value`, `invalid_json`, `invalid_content_encoding`: a body OpenAI's Decisions refuses.",
    },
  },
  models: {
    method: "GET",
    path: "/v1/models",
    protocol: "models",
    summary:
      "The InService endpoints the key may call and its aliases of them, in the one body both clients list: TypeSafe's `models`, OpenAI's `data`.",
    response: modelListSchema,
    errors: {
      ...keyAndOutages,
      403: "`forbidden`: the console's role may not list endpoints.",
      429: "`rate_limited`: AWS throttled the console's ListEndpoints.",
    },
  },
} as const satisfies Record<string, GatewayRoute>;
