import { type ZodType, z } from "zod";
import { type ApiRoute, consoleApi } from "../../contract/api.ts";
import { type GatewayRoute, gatewayApi, gatewayErrorBodies } from "../../contract/gateway/gateway-api.ts";
import { consoleErrorBodySchema, type ErrorCode, errorStatus } from "../../contract/http/error-body.ts";
import type { OpenApiDocument } from "../../contract/openapi/openapi.ts";
import packageJson from "../../package.json" with { type: "json" };
import { requiredAccess } from "../auth/policy.ts";
import { sessionCookieName } from "../auth/session.ts";
import { routeErrors } from "./route-errors.ts";

type JsonSchema = Record<string, unknown>;
type Routes = Record<string, ApiRoute>;

const errorSchemaRef = "#/components/schemas/ConsoleError";

/** zod's JSON Schema (draft 2020-12, OpenAPI 3.1's dialect) of what a caller sends (`input`) or gets (`output`). */
export function jsonSchemaOf(schema: ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "throw" }) as JsonSchema;
  return rest;
}

/** `/api/endpoints/[name]` in OpenAPI's notation: `/api/endpoints/{name}`. */
export function openApiPath(appPath: string): string {
  return appPath.replace(/\[([^\]]+)\]/g, "{$1}");
}

function pathParameters(appPath: string): object[] {
  return [...appPath.matchAll(/\[([^\]]+)\]/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string", minLength: 1 },
  }));
}

/** A query schema is an object; each of its properties is one query parameter. */
function queryParameters(query: ZodType | undefined): object[] {
  if (!query) return [];
  const schema = jsonSchemaOf(query, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    in: "query",
    required: schema.required?.includes(name) ?? false,
    ...(typeof property.description === "string" ? { description: property.description } : {}),
    schema: property,
  }));
}

const json = (schema: JsonSchema) => ({ "application/json": { schema } });

/** The error body with its code fixed to the one this status carries. */
function errorResponse(code: ErrorCode): object {
  return {
    description: `\`${code}\`: the console's error body.`,
    content: json({
      allOf: [{ $ref: errorSchemaRef }, { properties: { error: { properties: { code: { const: code } } } } }],
    }),
  };
}

function bodyOf(route: ApiRoute): object {
  return route.response ? { content: json(jsonSchemaOf(route.response, "output")) } : {};
}

/** Statuses a route answers with its own body besides its success (the contract says them in `note`). */
const otherStatuses: Partial<Record<string, { status: number; description: string }>> = {
  "GET /api/health": { status: 503, description: "`degraded`: a configured control plane is not ok." },
};

function operation(key: string, route: ApiRoute): object {
  const access = requiredAccess(route.path, route.method);
  const responses: Record<string, object> = { [route.status]: { description: route.summary, ...bodyOf(route) } };
  for (const code of routeErrors(route)) responses[errorStatus[code]] = { $ref: `#/components/responses/${code}` };
  responses[431] = headerTooLarge;
  const other = otherStatuses[`${route.method} ${route.path}`];
  if (other) responses[other.status] = { description: other.description, ...bodyOf(route) };
  return {
    operationId: key,
    summary: route.summary,
    ...(route.note ? { description: route.note } : {}),
    tags: [route.path.split("/")[2]],
    "x-required-role": access,
    // An anonymous route still reads the session when there is one (`/api/auth/me` says who it is).
    security: access === "anonymous" ? [{}, { session: [] }] : [{ session: [] }],
    parameters: [...pathParameters(route.path), ...queryParameters(route.query)],
    ...(route.body ? { requestBody: { required: true, content: json(jsonSchemaOf(route.body, "input")) } } : {}),
    responses,
  };
}

const headerTooLarge = { $ref: "#/components/responses/request_header_fields_too_large" };

const headers = {
  inferenceId: {
    description: "The call's inference id, as InvokeEndpoint's InferenceId (data capture records it).",
    schema: { type: "string" },
  },
  retryAfter: { description: "Seconds to wait before retrying.", schema: { type: "integer", minimum: 1 } },
};

/** A gateway route's operation: its protocol's body and answer, the gateway key, and its errors in its protocol's body. */
function gatewayOperation(key: string, route: GatewayRoute): object {
  const errorBody = json(jsonSchemaOf(gatewayErrorBodies[route.protocol], "output"));
  const decision = route.protocol !== "models";
  const responses: Record<string, object> = {
    200: {
      description: route.summary,
      ...(decision && { headers: { "x-inference-id": { ...headers.inferenceId, required: true } } }),
      content: json(jsonSchemaOf(route.response, "output")),
    },
  };
  for (const [status, description] of Object.entries(route.errors)) {
    const retry = status === "429" || status === "503";
    responses[status] = {
      description,
      headers: {
        ...(retry && { "retry-after": headers.retryAfter }),
        ...(decision && { "x-inference-id": headers.inferenceId }),
      },
      content: errorBody,
    };
  }
  responses[431] = headerTooLarge;
  return {
    operationId: key,
    summary: route.summary,
    tags: ["gateway"],
    security: [{ gatewayKey: [] }],
    parameters: [],
    ...(route.body ? { requestBody: { required: true, content: json(jsonSchemaOf(route.body, "input")) } } : {}),
    responses,
  };
}

const description = [
  "The console's HTTP API, generated from its route table (contract/api.ts) and zod schemas.",
  "",
  `Sign-in: \`POST /api/auth/login\` with a user's name and password sets the session cookie \`${sessionCookieName}\``,
  "(HttpOnly, SameSite=Lax, 12 hours); send it back in `Cookie`. On loopback with no users configured, every caller",
  "is the local operator and needs no cookie. `x-required-role` says who may call an operation: anonymous, viewer,",
  "or operator (who may do everything a viewer may); too little role is 403, no session 401.",
  "",
  "Unsafe methods (POST, PUT, PATCH, DELETE) are refused with 403 when `Sec-Fetch-Site` is present and not",
  "`same-origin`, or when `Origin` is present and not this console's origin; a client that sends neither (curl, a",
  "generated client) is not a browser and passes.",
  "",
  "Bodies are JSON with `Content-Type: application/json` (else 415), at most 1 MiB (dataset uploads 20 MiB; 413 past",
  "it). Every failure answers the error body `ConsoleError` with the status of its code.",
  "",
  "The decision gateway's routes (`/v1/*`, tag `gateway`, docs/gateway.md) are for applications: they take a gateway",
  "API key as `Authorization: Bearer <key>` instead of a session, speak TypeSafe's System One and OpenAI's Decisions,",
  "and answer errors in their protocol's body (`/v1/systemone` TypeSafe's `detail`, the others OpenAI's `error`).",
].join("\n");

/**
 * The console's API as an OpenAPI 3.1 document, built from a route table (the console's own by default) and the
 * decision gateway's routes.
 */
export function openApiDocument(routes: Routes = consoleApi, version = packageJson.version): OpenApiDocument {
  const paths: Record<string, Record<string, object>> = {};
  const add = (path: string, method: string, built: object) => {
    const at = openApiPath(path);
    paths[at] ??= {};
    paths[at][method.toLowerCase()] = built;
  };
  for (const [key, route] of Object.entries(routes)) add(route.path, route.method, operation(key, route));
  for (const [key, route] of Object.entries(gatewayApi)) add(route.path, route.method, gatewayOperation(key, route));
  const responses: Record<string, object> = Object.fromEntries(
    (Object.keys(errorStatus) as ErrorCode[]).map((code) => [code, errorResponse(code)]),
  );
  responses.request_header_fields_too_large = {
    description:
      "Node's HTTP server refuses a request whose request line and headers pass 16 KiB (its `maxHeaderSize`) before the console reads it, with no body: a long query or path, percent-encoded, can pass it within the parameters' own limits.",
  };
  return {
    openapi: "3.1.0",
    info: { title: "Decision console API", version, description },
    paths,
    components: {
      schemas: { ConsoleError: jsonSchemaOf(consoleErrorBodySchema, "output") },
      responses,
      securitySchemes: {
        session: {
          type: "apiKey",
          in: "cookie",
          name: sessionCookieName,
          description: "The session `POST /api/auth/login` (or single sign-on) sets.",
        },
        gatewayKey: {
          type: "http",
          scheme: "bearer",
          description:
            "A gateway API key (`dcg_...`) an operator created on the Keys page; the decision gateway's routes only.",
        },
      },
    },
  };
}
