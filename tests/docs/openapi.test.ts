import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { GET } from "@/app/api/openapi.json/route.ts";
import { type ApiRoute, consoleApi } from "@/contract/api.ts";
import { gatewayApi, gatewayErrorBodies } from "@/contract/gateway/gateway-api.ts";
import { errorStatus } from "@/contract/http/error-body.ts";
import { isCurrent, openApiFile } from "@/scripts/openapi.ts";
import { requiredAccess } from "@/server/auth/policy.ts";
import { sessionCookieName } from "@/server/auth/session.ts";
import { jsonSchemaOf, openApiDocument, openApiPath } from "@/server/openapi/document.ts";

type Operation = {
  operationId: string;
  tags: string[];
  parameters: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<
    string,
    { $ref?: string; content?: Record<string, { schema: unknown }>; headers?: Record<string, { required?: boolean }> }
  >;
  security: Record<string, string[]>[];
  "x-required-role": string;
};
type ErrorResponse = { content: { "application/json": { schema: { allOf: [unknown, ErrorCodeSchema] } } } };
type ErrorCodeSchema = { properties: { error: { properties: { code: unknown } } } };
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; responses: Record<string, ErrorResponse> };
};

const routes = Object.entries(consoleApi) as [string, ApiRoute][];
const operationOf = (document: unknown, route: Pick<ApiRoute, "method" | "path">) =>
  (document as Document).paths[openApiPath(route.path)]?.[route.method.toLowerCase()];

describe("docs/openapi.json", () => {
  it("is the document npm run gen:openapi makes from the route table (run it after changing a route)", () => {
    expect(isCurrent()).toBe(true);
    expect(JSON.parse(fs.readFileSync(openApiFile, "utf8"))).toEqual(openApiDocument());
  });

  it("is what GET /api/openapi.json serves", async () => {
    const response = await GET(new Request("http://127.0.0.1/api/openapi.json"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(JSON.parse(fs.readFileSync(openApiFile, "utf8")));
  });
});

describe("openApiDocument", () => {
  const document = openApiDocument() as unknown as Document;

  it.each(routes)("%s: its operation, its status with its schema, its role and its session", (key, route) => {
    const operation = operationOf(document, route);
    expect(operation?.operationId).toBe(key);
    const access = requiredAccess(route.path, route.method);
    expect(operation?.["x-required-role"]).toBe(access);
    expect(operation?.security).toEqual(access === "anonymous" ? [{}, { session: [] }] : [{ session: [] }]);
    const success = operation?.responses[route.status];
    expect(success).toBeDefined();
    if (route.response) expect(success?.content?.["application/json"]?.schema).toBeDefined();
    const pathNames = [...route.path.matchAll(/\[([^\]]+)\]/g)].map(([, name]) => name);
    expect(operation?.parameters.filter((p) => p.in === "path").map((p) => p.name)).toEqual(pathNames);
    expect(operation?.requestBody !== undefined).toBe(route.body !== undefined);
    if (access !== "anonymous")
      expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(["401", "403"]));
    if (route.method !== "GET") expect(Object.keys(operation?.responses ?? {})).toContain("403");
    expect(operation?.responses[431]).toEqual({ $ref: "#/components/responses/request_header_fields_too_large" });
    if (route.body)
      expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(["400", "413", "415"]));
  });

  it.each(Object.entries(gatewayApi))(
    "%s: a gateway operation with the Bearer key, its protocol's body and answer, its errors in its protocol's body",
    (key, route) => {
      const operation = operationOf(document, route);
      expect(operation?.operationId).toBe(key);
      expect(operation?.tags).toEqual(["gateway"]);
      expect(operation?.security).toEqual([{ gatewayKey: [] }]);
      expect(operation?.responses[200]?.content?.["application/json"]?.schema).toEqual(
        jsonSchemaOf(route.response, "output"),
      );
      expect(operation?.requestBody?.content["application/json"]?.schema).toEqual(
        "body" in route ? jsonSchemaOf(route.body, "input") : undefined,
      );
      const errorBody = jsonSchemaOf(gatewayErrorBodies[route.protocol], "output");
      for (const status of ["401", ...Object.keys(route.errors)]) {
        expect(operation?.responses[status]?.content?.["application/json"]?.schema, status).toEqual(errorBody);
      }
      expect(operation?.responses[429]?.headers).toHaveProperty("retry-after");
      if (route.method === "POST") {
        expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(["400", "413", "415"]));
        expect(operation?.responses[200]?.headers?.["x-inference-id"]?.required).toBe(true);
      }
    },
  );

  it("describes the gateway key as a Bearer scheme", () => {
    expect(document.components.securitySchemes.gatewayKey).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("describes the session cookie by the name the console sets", () => {
    expect(document.components.securitySchemes.session).toMatchObject({
      type: "apiKey",
      in: "cookie",
      name: sessionCookieName,
    });
  });

  it("has one error response per error code, its body the console's error with that code", () => {
    const { responses } = document.components;
    const { request_header_fields_too_large: headersTooLarge, ...errors } = responses;
    expect(headersTooLarge).not.toHaveProperty("content");
    expect(Object.keys(errors).sort()).toEqual(Object.keys(errorStatus).sort());
    for (const [code, response] of Object.entries(errors)) {
      expect(response.content["application/json"].schema.allOf[1].properties.error.properties.code).toEqual({
        const: code,
      });
    }
    for (const [, route] of routes) {
      for (const [status, response] of Object.entries(operationOf(document, route)?.responses ?? {})) {
        if (!response.$ref || status === "431") continue;
        const code = response.$ref.replace("#/components/responses/", "") as keyof typeof errorStatus;
        expect(errorStatus[code], `${route.method} ${route.path} ${status}`).toBe(Number(status));
      }
    }
  });

  it("lists each query field as a query parameter, required only when the schema requires it", () => {
    const operation = operationOf(document, consoleApi.endpointLogs);
    expect(operation?.parameters.filter((p) => p.in === "query").map((p) => [p.name, p.required])).toEqual([
      ["minutes", false],
      ["filterPattern", false],
      ["limit", false],
    ]);
  });

  it("a request shape changed in contract/ changes the document, so the committed docs/openapi.json is then stale", () => {
    const changed = {
      ...consoleApi,
      deploy: { ...consoleApi.deploy, body: consoleApi.deploy.body.extend({ team: z.string().max(8) }) },
    };
    const regenerated = openApiDocument(changed) as unknown as Document;
    const body = operationOf(regenerated, consoleApi.deploy)?.requestBody?.content["application/json"]?.schema as {
      properties: Record<string, unknown>;
    };
    expect(body.properties.team).toEqual({ type: "string", maxLength: 8 });
    expect(
      operationOf(document, consoleApi.deploy)?.requestBody?.content["application/json"]?.schema,
    ).not.toHaveProperty("properties.team");
    expect(regenerated).not.toEqual(JSON.parse(fs.readFileSync(openApiFile, "utf8")));
  });

  it("a changed query constraint changes its parameter", () => {
    const changed = {
      ...consoleApi,
      invocations: { ...consoleApi.invocations, query: z.object({ limit: z.coerce.number().int().min(1).max(7) }) },
    };
    const limit = operationOf(openApiDocument(changed), consoleApi.invocations)?.parameters.find(
      (p) => p.name === "limit",
    );
    expect(limit?.schema).toMatchObject({ maximum: 7 });
  });
});
