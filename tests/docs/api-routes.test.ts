import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type ApiRoute, consoleApi } from "@/contract/api.ts";
import { gatewayApi } from "@/contract/gateway/gateway-api.ts";
import { curlExamples, sampleValues } from "@/scripts/api-docs/examples.ts";
import { apiDocsFile, renderApiDocs } from "@/scripts/api-docs.ts";

const appDir = path.resolve(import.meta.dirname, "../../app");
const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** `METHOD /api/...` for every handler exported by a route.ts under `app/<folder>`. */
function handlersOnDisk(folder: "api" | "v1"): string[] {
  return fs
    .readdirSync(path.join(appDir, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name === "route.ts")
    .flatMap((entry) => {
      const source = fs.readFileSync(path.join(entry.parentPath, entry.name), "utf8");
      const route = `/${path.relative(appDir, entry.parentPath).split(path.sep).join("/")}`;
      return methods
        .filter((method) => new RegExp(`export const ${method}\\b`).test(source))
        .map((m) => `${m} ${route}`);
    })
    .sort();
}

const routes = Object.entries(consoleApi) as [keyof typeof consoleApi, ApiRoute][];

/** A body as the docs show it, with each `$VARIABLE` replaced by a value of the kind it stands for. */
function withSamples(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body).replace(/\$([A-Z]+)/g, (_, name: string) => sampleValues[name] ?? name));
}

describe("docs/api-routes.md", () => {
  it("is what npm run docs:api generates from the contract (run it after changing a route)", () => {
    expect(fs.readFileSync(apiDocsFile, "utf8")).toBe(renderApiDocs());
  });

  it("the route table names exactly the route handlers on disk", () => {
    expect(routes.map(([, route]) => `${route.method} ${route.path}`).sort()).toEqual(handlersOnDisk("api"));
  });

  it("the gateway's route table names exactly the route handlers under app/v1, and the file lists each", () => {
    const gatewayRoutes = Object.values(gatewayApi).map((route) => `${route.method} ${route.path}`);
    expect(gatewayRoutes.sort()).toEqual(handlersOnDisk("v1"));
    const docs = fs.readFileSync(apiDocsFile, "utf8");
    for (const route of gatewayRoutes) expect(docs).toContain(`### ${route}`);
  });

  it("has one curl example for each mutating route", () => {
    const mutating = routes.filter(([, route]) => route.method !== "GET").map(([key]) => key);
    expect(Object.keys(curlExamples).sort()).toEqual(mutating.sort());
  });

  it.each(Object.entries(curlExamples).filter(([, example]) => example?.json !== undefined))(
    "the %s example's body is valid for its route",
    (key, example) => {
      const route = consoleApi[key as keyof typeof consoleApi] as ApiRoute;
      const parsed = route.body?.safeParse(withSamples(example?.json));
      expect(parsed?.success, JSON.stringify(parsed?.error?.issues)).toBe(true);
    },
  );
});
