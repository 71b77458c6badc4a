import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiRoute, consoleApi } from "@/contract/api.ts";
import { type LocalConsole, startLocalConsole, uploadDataset } from "./local-console.ts";

/**
 * Security issue 25, item 8: every route of contract/api.ts, called through the proxy and its handler against a
 * local-mode console, with names that do not exist, names outside the console's prefix, and bodies and queries
 * that are wrong. Each is a request the caller could have got right, so each must be a 4xx, never a 5xx.
 */

let local: LocalConsole;
let datasetId: string;
beforeAll(async () => {
  local = await startLocalConsole();
  datasetId = await uploadDataset(local);
});
afterAll(() => local?.close());

const missing = "dc-no-such-xyz";
const foreign = "team-b-prod";
const missingBuild = "decision-console-model-package:00000000-0000-4000-8000-000000000000";
const foreignBuild = "team-b-builds:00000000-0000-4000-8000-000000000000";

/** Values for each path parameter: absent resources, other teams' resources, text that is no id at all. */
const paramValues: Record<string, string[]> = {
  name: [missing, foreign, "Not_A-Name!"],
  id: ["no-such-id", missingBuild, foreignBuild],
  inferenceId: ["0a1b2c3d-0000-4000-8000-000000000000", "bad id"],
};

/** Bodies that a caller could have got right: no body, not JSON, the wrong shape, wrong types. */
const badBodies: unknown[] = [undefined, "{", "{}", "[]", { name: 5, instanceCount: "many" }];

/** Well-formed bodies naming what does not exist or is not the console's, per route that takes names in its body. */
function namedBodies(key: string): unknown[] {
  const batch = (modelName: string) => ({ modelName, instanceType: "ml.m5.large", instanceCount: 20 });
  switch (key) {
    case "startEvaluation":
      return [
        { datasetId, endpoints: [missing] },
        { datasetId, endpoints: [foreign] },
        { datasetId, endpoints: ["dc-a", foreign] },
        { datasetId, batch: batch(missing) },
        { datasetId, batch: batch(foreign) },
        { datasetId: "no-such-dataset", endpoints: [missing] },
      ];
    case "startTransformJob":
      return [
        { name: "dc-walk-job", modelName: missing, inputS3Uri: "s3://walk-bucket/in/", instanceType: "ml.m5.large" },
        { name: "dc-walk-job", modelName: foreign, inputS3Uri: "s3://walk-bucket/in/", instanceType: "ml.m5.large" },
        { name: foreign, modelName: "dc-model", inputS3Uri: "s3://walk-bucket/in/", instanceType: "ml.m5.large" },
        {
          name: "dc-walk-job",
          buildOutput: { buildId: foreignBuild, imageDigest: `sha256:${"0".repeat(64)}` },
          inputS3Uri: "s3://walk-bucket/in/",
          instanceType: "ml.m5.large",
        },
      ];
    case "deploy":
      return [{ name: foreign, imageUri: "x", modelDataUrl: "s3://b/k" }];
    case "scaleEndpoint":
      return [{ instanceCount: 1 }];
    case "putAutoscaling":
      return [{ minInstances: 1, maxInstances: 2, targetInvocationsPerInstance: 10 }];
    case "invoke":
    case "invokeAsync":
      return [{ body: { state: "s", question: "q", options: [] } }];
    case "updateEndpoint":
      return [
        {
          change: { threads: 2 },
          strategy: { kind: "all-at-once", waitSeconds: 0 },
          alarms: { kind: "none" },
          rollBackTo: foreign,
        },
      ];
    default:
      return [];
  }
}

const badQueries = ["", "?limit=abc&minutes=-1&periodSeconds=7&after=&tag=&format=xml&compareWith=&before=0"];

interface Case {
  method: string;
  path: string;
  body: unknown;
}

function pathsOf(route: ApiRoute): string[] {
  const names = [...route.path.matchAll(/\[([^\]]+)\]/g)].map((match) => match[1]!);
  let paths = [route.path];
  for (const name of names) {
    paths = paths.flatMap((p) =>
      (paramValues[name] ?? ["x"]).map((value) => p.replace(`[${name}]`, encodeURIComponent(value))),
    );
  }
  return paths;
}

function casesOf(key: string, route: ApiRoute): Case[] {
  const bodies = route.method === "GET" ? [undefined] : [...badBodies, ...namedBodies(key)];
  return pathsOf(route).flatMap((p) =>
    badQueries.flatMap((query) => bodies.map((body) => ({ method: route.method, path: `${p}${query}`, body }))),
  );
}

/** Built once the dataset exists, which the evaluation bodies name. */
const allCases = () =>
  Object.entries(consoleApi as Record<string, ApiRoute>).flatMap(([key, route]) => casesOf(key, route));

describe("no route answers 5xx to a request the caller could have got right", () => {
  it("walks every route of contract/api.ts", () => {
    const walked = new Set(allCases().map((c) => `${c.method} ${c.path.split("?")[0]}`));
    for (const route of Object.values(consoleApi as Record<string, ApiRoute>)) {
      const pattern = new RegExp(`^${route.method} ${route.path.replace(/\[[^\]]+\]/g, "[^/]+")}$`);
      expect(
        [...walked].some((walk) => pattern.test(walk)),
        `${route.method} ${route.path}`,
      ).toBe(true);
    }
  });

  it("answers every request with a status below 500 and a JSON error that says why", async () => {
    const failures: string[] = [];
    const counts = { requests: 0, refused: 0, serverErrors: 0 };
    for (const c of allCases()) {
      // Signing out would end the operator's session for the requests after it.
      const as = c.path.startsWith("/api/auth/logout") ? "anonymous" : "operator";
      const response = await local.send(c.method, c.path, { body: c.body, as });
      counts.requests++;
      if (response.status >= 400 && response.status < 500) counts.refused++;
      if (response.status >= 500) {
        counts.serverErrors++;
        failures.push(`${c.method} ${c.path} ${JSON.stringify(c.body)} -> ${response.status} ${await response.text()}`);
      } else {
        await response.body?.cancel();
      }
    }
    console.log(JSON.stringify({ walk: counts, awsRequests: local.plane.traffic.requests }));
    expect(failures).toEqual([]);
  }, 600_000);
});

/**
 * Security issue 25, item 1 (console half): a name outside CONSOLE_RESOURCE_PREFIX, in a route's path or naming
 * an existing resource in its body, is refused with a 403 that names the prefix before any AWS call.
 */
describe("names the console does not manage", () => {
  const routes = Object.values(consoleApi as Record<string, ApiRoute>);
  const named = routes.filter((route) => route.path.includes("[name]"));
  const builds = routes.filter((route) => route.path.startsWith("/api/builds/[id]"));
  const refusal = (name: string) =>
    `${name} is not managed by this console: it manages names starting with ${local.prefix}.`;

  async function refusedBeforeAws(method: string, path: string, body?: unknown) {
    const before = local.plane.traffic.requests;
    const response = await local.send(method, path, { body });
    const answer = (await response.json()) as { error?: { code: string; message: string } };
    expect(
      { status: response.status, code: answer.error?.code, aws: local.plane.traffic.requests - before },
      answer.error?.message,
    ).toEqual({
      status: 403,
      code: "forbidden",
      aws: 0,
    });
    return answer.error?.message ?? "";
  }

  it("covers every route with a [name] and every build route", () => {
    expect(named.length).toBeGreaterThanOrEqual(15);
    expect(builds.length).toBe(4);
  });

  it.each(named.map((route) => [route.method, route.path] as const))(
    "%s %s with team-b-prod",
    async (method, pattern) => {
      const path = pattern.replace("[name]", foreign).replace("[inferenceId]", "0a1b2c3d");
      const body = method === "GET" || method === "DELETE" ? undefined : {};
      expect(await refusedBeforeAws(method, path, body)).toBe(refusal(foreign));
    },
  );

  it("PUT /api/endpoints/team-b-prod/autoscaling as an operator, with a valid body", async () => {
    const body = { minInstances: 1, maxInstances: 2, targetInvocationsPerInstance: 10 };
    expect(await refusedBeforeAws("PUT", `/api/endpoints/${foreign}/autoscaling`, body)).toBe(refusal(foreign));
  });

  it("is refused whatever the case of the name (SageMaker names are case-insensitive)", async () => {
    expect(await refusedBeforeAws("GET", "/api/endpoints/TEAM-B-PROD")).toBe(refusal("TEAM-B-PROD"));
    const managed = await local.send("GET", `/api/endpoints/${local.prefix.toUpperCase()}no-such-xyz`);
    expect(managed.status).toBe(404);
  });

  it.each(builds.map((route) => [route.method, route.path] as const))(
    "%s %s of another team's build project",
    async (method, pattern) => {
      const message = await refusedBeforeAws(method, pattern.replace("[id]", encodeURIComponent(foreignBuild)));
      expect(message).toBe(
        `${foreignBuild} is not a build of this console: it runs builds of decision-console-model-package and decision-console-image-build.`,
      );
    },
  );

  it("in a body: the endpoints and the model of an evaluation, the model and build of a transform job", async () => {
    const batch = { modelName: foreign, instanceType: "ml.m5.large" };
    const job = { name: `${local.prefix}walk-job`, inputS3Uri: "s3://walk-bucket/in/", instanceType: "ml.m5.large" };
    const digest = `sha256:${"0".repeat(64)}`;
    expect(await refusedBeforeAws("POST", "/api/evaluations", { datasetId, endpoints: [foreign] })).toBe(
      `endpoints: ${refusal(foreign)}`,
    );
    expect(
      await refusedBeforeAws("POST", "/api/evaluations", { datasetId, endpoints: [`${local.prefix}a`, foreign] }),
    ).toBe(`endpoints: ${refusal(foreign)}`);
    expect(await refusedBeforeAws("POST", "/api/evaluations", { datasetId, batch })).toBe(
      `batch.modelName: ${refusal(foreign)}`,
    );
    expect(await refusedBeforeAws("POST", "/api/batch", { ...job, modelName: foreign })).toBe(
      `modelName: ${refusal(foreign)}`,
    );
    expect(
      await refusedBeforeAws("POST", "/api/batch", {
        ...job,
        buildOutput: { buildId: foreignBuild, imageDigest: digest },
      }),
    ).toMatch(/^buildOutput\.buildId: team-b-builds:\S+ is not a build of this console/);
    const update = {
      change: {},
      strategy: { kind: "all-at-once", waitSeconds: 0 },
      alarms: { kind: "none" },
      rollBackTo: foreign,
    };
    expect(await refusedBeforeAws("POST", `/api/endpoints/${local.prefix}x/update`, update)).toBe(
      `rollBackTo: ${refusal(foreign)}`,
    );
  });
});
