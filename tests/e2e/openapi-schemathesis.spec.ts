import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, request, test } from "@playwright/test";
import { sessionCookieName } from "../../server/auth/session.ts";
import { e2eSettings } from "./support/e2e-settings.ts";
import {
  conformanceChecks,
  type OperationRule,
  runSchemathesis,
  schemathesisConfig,
  schemathesisMissing,
} from "./support/schemathesis.ts";

/**
 * Issue 30: a client no one here wrote. schemathesis reads the console's own `GET /api/openapi.json` and sends what
 * it generates from it to every operation, as a signed-in operator and as a signed-in viewer, and checks each answer
 * against the document: no 5xx, only documented statuses, and bodies, content types and headers as documented.
 * It shares the console with the other specs, so every unsafe operation it sends names only what this spec owns.
 */
const { baseURL, user, viewer, stateDir } = e2eSettings();
const missing = schemathesisMissing();
const required = process.env.PYTHON_TESTS === "required";
/** Per run as each role (sign-in and sign-out get a third of it): the spec stays within about four minutes. */
const maxSeconds = Number(process.env.SCHEMATHESIS_MAX_SECONDS) || 90;
const maxExamples = Number(process.env.SCHEMATHESIS_MAX_EXAMPLES) || 10;

test.describe.configure({ mode: "serial" });
test.skip(missing !== null && !required, `schemathesis: skipped: ${missing}`);

/**
 * Signs in as a client should: a 429 is waited out for its Retry-After (the fuzz runs before this one send the
 * sign-in route the accounts' names, so the limiter may still hold one of them for a second or two).
 */
async function signIn(name: string, password: string): Promise<{ cookie: string; api: APIRequestContext }> {
  const api = await request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  let response = await api.post("/api/auth/login", { data: { name, password } });
  for (let attempt = 1; response.status() === 429 && attempt <= 5; attempt++) {
    const wait = Number(response.headers()["retry-after"] ?? "1");
    await new Promise((resolve) => setTimeout(resolve, Math.min(30, Math.max(1, wait)) * 1000));
    response = await api.post("/api/auth/login", { data: { name, password } });
  }
  expect(response.status(), await response.text()).toBe(200);
  const setCookie = response.headers()["set-cookie"] ?? "";
  const token = new RegExp(`${sessionCookieName}=([^;]+)`).exec(setCookie)?.[1];
  expect(token, setCookie).toBeTruthy();
  return { cookie: `${sessionCookieName}=${token}`, api };
}

/** The dataset this spec stores and may delete: a two-item decision set under a name of its own. */
async function ownDataset(api: APIRequestContext): Promise<string> {
  const item = (id: string, answer: string) =>
    JSON.stringify({
      id,
      state: `Ticket ${id} has waited three days.`,
      question: "Should support escalate the ticket?",
      options: [
        { id: "wait", description: "Wait" },
        { id: "escalate", description: "Escalate" },
      ],
      answer,
    });
  const response = await api.post("/api/datasets", {
    data: { name: `openapi-schemathesis-${Date.now()}`, text: `${item("a", "wait")}\n${item("b", "escalate")}` },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/**
 * A gateway API key for the decision gateway's operations (`/v1/*`), which take it as their Bearer scheme instead of
 * the session: scoped to the spec's own endpoint name, which no endpoint has, so a generated `model` is refused (403)
 * or not found (404) and nothing is invoked; its limits are far above what the run sends.
 */
async function ownGatewayKey(api: APIRequestContext, endpoint: string): Promise<string> {
  const response = await api.post("/api/gateway/keys", {
    data: {
      name: `openapi-schemathesis-${Date.now()}`,
      endpoints: [endpoint],
      aliases: {},
      requestsPerMinute: 100_000,
      tokensPerMinute: 100_000_000,
      expiresAt: null,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { secret: string }).secret;
}

/**
 * Where schemathesis may act, and how. Every unsafe operation names only this spec's own things: an endpoint and a
 * transform job no one creates (with the console's prefix, so the gate lets them through to the handlers), and the
 * dataset it stored, whose id no evaluation has. Operations whose valid request would start work in the shared
 * console (a deployment, a build, a transform job) or add a dataset other specs list get invalid requests only.
 */
const ownEndpoint = (prefix: string) => `${prefix}oas-${process.pid}`;

function configFor(prefix: string, dataset: string, gatewayKey: string): string {
  const tag = ownEndpoint(prefix);
  const auth = `[auth.openapi.gatewayKey]\nbearer = ${JSON.stringify(gatewayKey)}\n`;
  return `${schemathesisConfig(rules(tag, dataset), { "own-names": [tag] })}\n${auth}`;
}

function rules(tag: string, dataset: string): OperationRule[] {
  return [
    {
      reason: "Unsafe operations act only on names this spec owns.",
      include: { "include-method-regex": "^(POST|PUT|PATCH|DELETE)$" },
      parameters: {
        "path.name": tag,
        "path.id": dataset,
        "path.inferenceId": "00000000-0000-4000-8000-000000000000",
      },
    },
    {
      reason: "Reads name the spec's endpoint half the time, so they reach the handlers past the gate's prefix check.",
      include: { "include-method": "GET" },
      parameters: { "path.name": { dictionary: "own-names", probability: 0.5 } },
    },
    {
      reason:
        "A valid request would deploy, build, start a transform job or store a dataset in the console the other specs share: invalid requests only (each must be refused with a 4xx).",
      include: { "include-operation-id": ["deploy", "startBuild", "startTransformJob", "uploadDataset"] },
      mode: "negative",
    },
  ];
}

interface Run {
  who: string;
  generated: number;
}
const runs: Run[] = [];

async function fuzz(
  who: string,
  cookie: string,
  config: string,
  extra: readonly string[],
  seconds = maxSeconds,
): Promise<void> {
  const dir = path.join(stateDir, `schemathesis-${who}`);
  fs.mkdirSync(dir, { recursive: true });
  const configFile = path.join(dir, "schemathesis.toml");
  fs.writeFileSync(configFile, config);
  const run = await runSchemathesis(
    [
      "--config-file",
      configFile,
      "run",
      `${baseURL}/api/openapi.json`,
      "--url",
      baseURL,
      "--header",
      `Cookie: ${cookie}`,
      "--checks",
      conformanceChecks.join(","),
      "--phases",
      "examples,coverage,fuzzing",
      "--max-examples",
      String(maxExamples),
      "--max-time",
      String(seconds),
      "--workers",
      "1",
      "--request-timeout",
      "30",
      "--generation-with-security-parameters",
      "false",
      "--generation-database",
      "none",
      "--report",
      "junit",
      "--report-dir",
      dir,
      "--no-color",
      ...extra,
    ],
    path.join(dir, "schemathesis.log"),
    (seconds + 120) * 1000,
  );
  console.log(
    `schemathesis as ${who}: ${run.generated} generated requests to ${run.tested} of ${run.selected} operations, exit status ${run.status}`,
  );
  runs.push({ who, generated: run.generated });
  expect(run.generated, `schemathesis as ${who} generated no requests`).toBeGreaterThan(0);
  expect(run.tested, `schemathesis as ${who} ran out of time before testing every operation`).toBe(run.selected);
  expect(run.status, `schemathesis as ${who} found failures (its output is above)`).toBe(0);
}

test.afterAll(() => {
  const total = runs.reduce((sum, run) => sum + run.generated, 0);
  console.log(
    `schemathesis: ${total} generated requests (${runs.map((run) => `${run.who} ${run.generated}`).join(", ")})`,
  );
});

test.describe("the console's OpenAPI document under schemathesis", () => {
  test.setTimeout((maxSeconds + 180) * 1000);
  let config = "";

  test.beforeAll(async () => {
    if (missing !== null) throw new Error(`PYTHON_TESTS=required, but schemathesis cannot run: ${missing}`);
    const operator = await signIn(user.name, user.password);
    try {
      const settings = await (await operator.api.get("/api/settings")).json();
      const prefix = settings.resourceNamePrefix ?? "";
      const gatewayKey = await ownGatewayKey(operator.api, ownEndpoint(prefix));
      config = configFor(prefix, await ownDataset(operator.api), gatewayKey);
    } finally {
      await operator.api.dispose();
    }
  });

  test("as an operator: every operation but sign-out", async () => {
    const { cookie, api } = await signIn(user.name, user.password);
    await api.dispose();
    await fuzz("operator", cookie, config, ["--exclude-operation-id", "logout"]);
  });

  test("as a viewer: every operation but sign-out", async () => {
    const { cookie, api } = await signIn(viewer.name, viewer.password);
    await api.dispose();
    await fuzz("viewer", cookie, config, ["--exclude-operation-id", "logout"]);
  });

  test("sign-in and sign-out, with a session of their own", async () => {
    // Sign-out revokes the session it is sent with, so it gets one the other runs do not use.
    const { cookie, api } = await signIn(viewer.name, viewer.password);
    await api.dispose();
    await fuzz(
      "sign-in-and-out",
      cookie,
      config,
      ["--include-operation-id", "login", "--include-operation-id", "logout"],
      Math.ceil(maxSeconds / 3),
    );
  });
});
