import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { SageMakerClient } from "@aws-sdk/client-sagemaker";
import {
  type ControlPlane,
  localAwsEnvironment,
  localClientConfig,
  startControlPlane,
} from "@decision-console/local-aws";
import {
  createEndpoint,
  localAdapterImageUri,
  testExecutionRoleArn,
  testStackFixture,
  writeTinyModel,
} from "@decision-console/local-aws/testing";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { draftFromBody } from "../../components/playground/decision-draft.ts";
import { examples } from "../../components/playground/examples.ts";
import { bodyFromDraftAs } from "../../components/playground/protocol-body.ts";
import { sdkSnippet } from "../../components/playground/sdk-snippets.ts";
import type { Store } from "../../server/store/store.ts";
import { type RouteServer, serveRoutes } from "../support/route-server.ts";
import { type EmptyDatabase, openEmptyDatabase, testPostgresUrl } from "../support/store/test-stores.ts";

vi.mock("server-only", () => ({}));

/**
 * Issue 54: the console's decision gateway, called by the official clients with only `base_url` and `api_key`:
 * TypeSafe's `typesafe-sdk` and OpenAI's `openai` in Python (tests/python/decision_clients/drive_gateway.py), and
 * the `openai` npm package here, through the console's proxy and route handlers, local mode's InvokeEndpoint and a
 * real adapter process on the generated tiny GGUF.
 */
const repoRoot = path.resolve(import.meta.dirname, "../..");
const python = path.join(repoRoot, ".venv-tests/bin/python");
const pythonAvailable = fs.existsSync(python);
const tsx = path.join(repoRoot, "node_modules", ".bin", "tsx");
const ENDPOINT = "dc-gateway";
const ALIAS = "jev-latest";

let dir: string;
let plane: ControlPlane;
let server: RouteServer;
let store: Store;
const saved = { ...process.env };
const keys: Record<"good" | "wrong" | "revoked" | "expired" | "limited", string> = {
  good: "",
  wrong: "",
  revoked: "",
  expired: "",
  limited: "",
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "console-gateway-"));
  const gguf = path.join(dir, "tiny.gguf");
  writeTinyModel(gguf);
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir: path.join(dir, "aws"), port: 0 });
  const admin = localClientConfig(plane, "admin");
  await new S3Client({ ...admin, forcePathStyle: true }).send(
    new PutObjectCommand({ Bucket: plane.bucket, Key: "models/gateway/model.gguf", Body: fs.readFileSync(gguf) }),
  );
  await createEndpoint(
    new SageMakerClient(admin),
    ENDPOINT,
    {
      Image: localAdapterImageUri(plane),
      ModelDataSource: {
        S3DataSource: {
          S3Uri: `s3://${plane.bucket}/models/gateway/`,
          S3DataType: "S3Prefix",
          CompressionType: "None",
        },
      },
      Environment: { ADAPTER_THREADS: "1" },
    },
    { executionRoleArn: testExecutionRoleArn() },
  );
  await plane.endpoints.settled(ENDPOINT);
  Object.assign(process.env, localAwsEnvironment(plane), { CONSOLE_DATA_DIR: path.join(dir, "console") });
  const { consoleStore } = await import("../../server/store/console-database.ts");
  const keyStore = await import("../../server/gateway/key-store.ts");
  store = consoleStore();
  const scope = { endpoints: [ENDPOINT], aliases: { [ALIAS]: ENDPOINT }, expiresAt: null };
  const generous = { ...scope, requestsPerMinute: 1000, tokensPerMinute: 10_000_000 };
  const create = (name: string, limits = generous) => keyStore.createGatewayKey(store, { name, ...limits }, "tester");
  const good = await create("good");
  keys.good = good.secret;
  keys.wrong = `${good.secret.slice(0, -6)}${good.secret.endsWith("AAAAAA") ? "BBBBBB" : "AAAAAA"}`;
  const revoked = await create("revoked");
  await keyStore.revokeGatewayKey(store, revoked.key.id);
  keys.revoked = revoked.secret;
  keys.expired = (await create("expired", { ...generous, expiresAt: "2020-01-01T00:00:00Z" } as never)).secret;
  keys.limited = (await create("limited", { ...generous, requestsPerMinute: 2 })).secret;
  server = await serveRoutes({
    "/v1/systemone": { POST: (await import("../../app/v1/systemone/route.ts")).POST },
    "/v1/decisions": { POST: (await import("../../app/v1/decisions/route.ts")).POST },
    "/v1/models": { GET: (await import("../../app/v1/models/route.ts")).GET },
  });
}, 300_000);

afterAll(async () => {
  await server?.close();
  const { closeConsoleStore } = await import("../../server/store/console-database.ts");
  await closeConsoleStore();
  await plane?.close();
  process.env = saved;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

const openai = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${server.url}/v1`, maxRetries: 0 });
const questions = [
  { type: "predicate" as const, name: "refund", instructions: "The customer asks for money back." },
  {
    type: "choice" as const,
    name: "team",
    instructions: "Which team?",
    choices: [{ value: "billing" }, { value: "technical" }],
  },
  {
    type: "score" as const,
    name: "urgency",
    instructions: "How urgent?",
    levels: [{ label: "low" }, { label: "high" }],
  },
];

describe("the openai npm client against the gateway", () => {
  it("answers every question type for a key's alias of its endpoint, with the inference id it sent", async () => {
    const decision = await openai(keys.good).decisions.create({ model: ALIAS, input: "Charged twice.", questions });
    expect(decision.answers.map((answer) => answer.type)).toEqual(["predicate", "choice", "score"]);
    expect(decision.usage.input_tokens).toBeGreaterThan(0);
    const inferenceId = (decision as unknown as { x_inference_id: string }).x_inference_id;
    const recorded = await store
      .selectFrom("gateway_usage")
      .selectAll()
      .where("inference_id", "=", inferenceId)
      .executeTakeFirstOrThrow();
    expect(recorded).toMatchObject({ endpoint_name: ENDPOINT, protocol: "decisions", status: 200 });
    expect(recorded.input_tokens).toBe(decision.usage.input_tokens);
  });

  it("lists the key's endpoint and its alias as models", async () => {
    const models = await openai(keys.good).models.list();
    expect(models.data.map((model) => model.id).sort()).toEqual([ENDPOINT, ALIAS].sort());
  });

  it.each(["wrong", "revoked", "expired"] as const)("refuses a %s key with its AuthenticationError", async (name) => {
    const refused = await openai(keys[name])
      .decisions.create({ model: ALIAS, input: "x", questions: questions.slice(0, 1) })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((refused as InstanceType<typeof OpenAI.AuthenticationError>).code).toBe("invalid_api_key");
  });
});

describe("raw requests to the gateway", () => {
  const post = (route: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${route}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    });

  it("a request without a key is refused 401 in each protocol's shape", async () => {
    const systemone = await post("/v1/systemone", "{}");
    const decisions = await post("/v1/decisions", "{}");
    expect(systemone.status).toBe(401);
    expect(((await systemone.json()) as { detail: { error_type: string } }).detail.error_type).toBe("invalid_api_key");
    expect(decisions.status).toBe(401);
    expect(((await decisions.json()) as { error: { code: string } }).error.code).toBe("invalid_api_key");
  });

  it("a model no endpoint has is 404 model_not_found, for a key whose prefix covers the name", async () => {
    const { createGatewayKey } = await import("../../server/gateway/key-store.ts");
    const { secret } = await createGatewayKey(
      store,
      {
        name: "prefix",
        endpoints: ["dc-*"],
        aliases: {},
        requestsPerMinute: 10,
        tokensPerMinute: 10_000,
        expiresAt: null,
      },
      "tester",
    );
    const body = JSON.stringify({ model: "dc-no-such-endpoint", input: "x", questions: questions.slice(0, 1) });
    const missing = await post("/v1/decisions", body, { authorization: `Bearer ${secret}` });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("model_not_found");
  });

  it("a body in an encoding it does not read is refused 415, and bytes that are not zstd 400", async () => {
    const gzip = await post("/v1/systemone", "(gzip bytes)", {
      authorization: `Bearer ${keys.good}`,
      "content-encoding": "gzip",
    });
    expect(gzip.status).toBe(415);
    expect(((await gzip.json()) as { detail: { message: string } }).detail.message).toMatch(/send zstd or no encoding/);
    const zstd = await post("/v1/systemone", "(zstd bytes)", {
      authorization: `Bearer ${keys.good}`,
      "content-encoding": "zstd",
    });
    expect(zstd.status).toBe(400);
  });

  it("a body that is not JSON is a 4xx in the protocol's shape, never a 5xx", async () => {
    const auth = { authorization: `Bearer ${keys.good}` };
    const systemone = await post("/v1/systemone", "{not json", auth);
    const decisions = await post("/v1/decisions", '{"model": "jev-latest", "input": "x"}', auth);
    expect(systemone.status).toBe(422);
    expect(decisions.status).toBe(400);
    expect(((await decisions.json()) as { error: { message: string } }).error.message).toMatch(/^questions/);
  });
});

describe.skipIf(!pythonAvailable && process.env.PYTHON_TESTS !== "required")(
  "the Python clients (typesafe-sdk, openai) against the gateway",
  () => {
    type Refusal =
      | { error: string; status: number; message: string; retry_after: string | null; request_id?: string | null }
      | { answered: true };
    let driven: {
      typesafe: {
        noul: number;
        choice: string;
        choice_probabilities: Record<string, number>;
        score: number;
        models: string[];
        request_id: string;
      };
      openai: {
        decision: { answers: { type: string }[]; x_inference_id: string };
        models: string[];
        request_id: string;
      };
      refused: Record<"wrong" | "revoked" | "expired", { typesafe: Refusal; openai: Refusal }>;
      out_of_scope: { typesafe: Refusal; openai: Refusal };
      limited: Refusal[];
    };
    beforeAll(async () => {
      const args = JSON.stringify({ ...keys, model: ENDPOINT, alias: ALIAS, outside: "dc-other-endpoint" });
      const run = await promisify(execFile)(
        python,
        ["tests/python/decision_clients/drive_gateway.py", server.url, args],
        {
          cwd: repoRoot,
          encoding: "utf8",
          timeout: 240_000,
        },
      );
      driven = JSON.parse(run.stdout);
    }, 300_000);

    it("typesafe-sdk's system_one answers noul, choice and score questions", () => {
      expect(driven.typesafe.noul).toBeGreaterThanOrEqual(0);
      expect(driven.typesafe.noul).toBeLessThanOrEqual(1);
      expect(["billing", "technical"]).toContain(driven.typesafe.choice);
      const total = Object.values(driven.typesafe.choice_probabilities).reduce((a, b) => a + b, 0);
      expect(total).toBeCloseTo(1, 6);
      expect(driven.typesafe.score).toBeGreaterThanOrEqual(0);
      expect(driven.typesafe.models.sort()).toEqual([ENDPOINT, ALIAS].sort());
    });

    it("each client reads the call's request id, which is its inference id", () => {
      expect(driven.typesafe.request_id).toMatch(/^dc-gw-/);
      expect(driven.openai.request_id).toBe(driven.openai.decision.x_inference_id);
      expect(driven.refused.wrong.typesafe).toMatchObject({ request_id: expect.any(String) });
    });

    it("openai's decisions.create answers predicate, choice and score questions", () => {
      expect(driven.openai.decision.answers.map((answer) => answer.type)).toEqual(["predicate", "choice", "score"]);
      expect(driven.openai.models.sort()).toEqual([ENDPOINT, ALIAS].sort());
    });

    it.each(["wrong", "revoked", "expired"] as const)("a %s key is refused with each client's 401 error", (name) => {
      expect(driven.refused[name].typesafe).toMatchObject({ error: "TypeSafeAuthenticationError", status: 401 });
      expect(driven.refused[name].openai).toMatchObject({ error: "AuthenticationError", status: 401 });
    });

    it("a model outside the key's endpoints is refused with each client's 403 error", () => {
      expect(driven.out_of_scope.typesafe).toMatchObject({ error: "TypeSafePermissionDeniedError", status: 403 });
      expect(driven.out_of_scope.openai).toMatchObject({ error: "PermissionDeniedError", status: 403 });
    });

    it("a key over its requests per minute gets 429 with Retry-After in both clients", () => {
      const [first, second, third, fourth] = driven.limited;
      expect(first).toEqual({ answered: true });
      expect(second).toEqual({ answered: true });
      expect(third).toMatchObject({ error: "TypeSafeRateLimitError", status: 429 });
      expect(fourth).toMatchObject({ error: "RateLimitError", status: 429 });
      for (const refused of [third, fourth]) {
        expect(Number((refused as { retry_after: string }).retry_after)).toBeGreaterThanOrEqual(1);
      }
    });
  },
);

/** A user's shell: the gateway key in DECISION_KEY, no AWS credentials. */
function userShell(): Record<string, string | undefined> {
  return { PATH: process.env.PATH, HOME: process.env.HOME, DECISION_KEY: keys.good };
}

/** A snippet's run: its exit status and what it printed, with everything for a failure's message. */
function runSnippet(argv: string[], file: string) {
  return promisify(execFile)(argv[0]!, [...argv.slice(1), file], {
    cwd: path.dirname(file),
    encoding: "utf8",
    timeout: 120_000,
    env: userShell() as NodeJS.ProcessEnv,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string; message: string }) => ({
      code: error.code ?? -1,
      stdout: error.stdout ?? "",
      stderr: `${error.stderr ?? ""}\n${error.message}`,
    }),
  );
}

describe("the playground's SDK snippets, run as the page shows them against the gateway", () => {
  // The playground's agent (a JSON state) and extraction (two questions) examples, as its form sends them.
  const forms = ["agent", "extraction"].map((key) => {
    const draft = draftFromBody(examples.find((example) => example.key === key)!.body)!;
    return { key, draft, ids: draft.questions.map((question) => question.id) };
  });
  const snippets = [
    { language: "typesafe-python", protocol: "systemone", argv: [python], file: "snippet.py", needsPython: true },
    { language: "openai-python", protocol: "openai-decisions", argv: [python], file: "snippet.py", needsPython: true },
    {
      language: "openai-typescript",
      protocol: "openai-decisions",
      argv: [tsx],
      file: "snippet.ts",
      needsPython: false,
    },
  ] as const;
  let scratch: string;
  beforeAll(() => {
    // Inside the repository, so the TypeScript snippet's `openai` import resolves; a new project's package.json.
    fs.mkdirSync(path.join(repoRoot, "test-results"), { recursive: true });
    scratch = fs.mkdtempSync(path.join(repoRoot, "test-results", "gateway-snippets-"));
    fs.writeFileSync(path.join(scratch, "package.json"), JSON.stringify({ name: "snippets", private: true }));
  });
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  for (const snippet of snippets) {
    for (const form of forms) {
      it.skipIf(snippet.needsPython && !pythonAvailable && process.env.PYTHON_TESTS !== "required")(
        `${snippet.language}, the ${form.key} form: the gateway's answer to each question as one JSON document`,
        async () => {
          const body = bodyFromDraftAs(snippet.protocol, form.draft, ENDPOINT);
          const folder = fs.mkdtempSync(path.join(scratch, `${snippet.language}-${form.key}-`));
          const file = path.join(folder, snippet.file);
          fs.writeFileSync(file, sdkSnippet(snippet.language, server.url, ENDPOINT, body));
          const run = await runSnippet([...snippet.argv], file);
          const context = `${file} exited ${run.code}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
          expect(run.code, context).toBe(0);
          const printed = JSON.parse(run.stdout) as { answers: unknown };
          if (snippet.protocol === "systemone") {
            const answers = printed.answers as Record<string, { type: string; choice: string }>;
            expect(Object.keys(answers), context).toEqual(form.ids);
            for (const [index, question] of form.draft.questions.entries()) {
              expect(answers[form.ids[index]!]?.type).toBe("choice");
              expect(question.options.map((option) => option.id)).toContain(answers[form.ids[index]!]?.choice);
            }
          } else {
            const answers = printed.answers as { type: string; name: string; probabilities: unknown[] }[];
            expect(
              answers.map((answer) => [answer.type, answer.name]),
              context,
            ).toEqual(form.ids.map((id) => ["choice", id]));
            expect(answers.map((answer) => answer.probabilities.length)).toEqual(
              form.draft.questions.map((question) => question.options.length),
            );
          }
        },
        150_000,
      );
    }
  }
});

describe("the endpoint page's invocations", () => {
  it("count the decisions sent through the gateway beside the console's own", async () => {
    const { GET } = await import("../../app/api/endpoints/[name]/invocations/route.ts");
    const read = async () => {
      const request = new Request(`http://127.0.0.1:3000/api/endpoints/${ENDPOINT}/invocations`, {
        headers: { host: "127.0.0.1:3000" },
      });
      const answer = await GET(request, { params: Promise.resolve({ name: ENDPOINT }) });
      return ((await answer.json()) as { gateway: { calls: number; answered: number } }).gateway;
    };
    const before = await read();
    await openai(keys.good).decisions.create({ model: ENDPOINT, input: "Charged twice.", questions });
    expect(await read()).toEqual({ calls: before.calls + 1, answered: before.answered + 1 });
  });
});

const postgres = testPostgresUrl();
describe.skipIf("skipped" in postgres)("two console replicas on one PostgreSQL", () => {
  let database: EmptyDatabase;
  const replicas: RouteServer[] = [];
  let limited: { id: string; secret: string };
  let revokeInA: () => Promise<unknown>;

  beforeAll(async () => {
    database = await openEmptyDatabase("postgres");
    const { consoleContext } = await import("../../server/context.ts");
    const { serveDecision } = await import("../../server/gateway/decision-gateway.ts");
    const { gatewayRoute } = await import("../../server/gateway/gateway-route.ts");
    const { storeKeyLimits } = await import("../../server/gateway/key-limits.ts");
    const { knownKeys } = await import("../../server/gateway/known-keys.ts");
    const keyStore = await import("../../server/gateway/key-store.ts");
    const { runtime } = consoleContext().aws;
    // Each replica has its own connection pool on the one database, as two console processes do.
    for (const store of [database.open(), database.open()]) {
      const deps = { store, runtime, limits: storeKeyLimits(store), keys: knownKeys(store) };
      const POST = gatewayRoute("decisions", (request) => serveDecision(request, "decisions", deps));
      replicas.push(await serveRoutes({ "/v1/decisions": { POST } }));
    }
    const a = database.open();
    const created = await keyStore.createGatewayKey(
      a,
      {
        name: "limited",
        endpoints: [ENDPOINT],
        aliases: {},
        requestsPerMinute: 2,
        tokensPerMinute: 10_000_000,
        expiresAt: null,
      },
      "tester",
    );
    limited = { id: created.key.id, secret: created.secret };
    revokeInA = () => keyStore.revokeGatewayKey(a, created.key.id);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
    await database?.close();
  });

  const client = (replica: RouteServer) =>
    new OpenAI({ apiKey: limited.secret, baseURL: `${replica.url}/v1`, maxRetries: 0 });
  const decide = (replica: RouteServer) =>
    client(replica)
      .decisions.create({ model: ENDPOINT, input: "Charged twice.", questions: questions.slice(0, 1) })
      .then(() => "answered" as const)
      .catch((error: unknown) => error as InstanceType<typeof OpenAI.APIError>);

  it("a key's requests per minute hold across them: its third call, on either, gets 429 with Retry-After", async () => {
    const [a, b] = replicas as [RouteServer, RouteServer];
    expect(await decide(a)).toBe("answered");
    expect(await decide(b)).toBe("answered");
    for (const replica of [a, b]) {
      const refused = await decide(replica);
      expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
      const retryAfter = Number((refused as InstanceType<typeof OpenAI.APIError>).headers?.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(30);
    }
  });

  it("a key revoked through one replica is refused by the other at once", async () => {
    await revokeInA();
    expect(await decide(replicas[1]!)).toBeInstanceOf(OpenAI.AuthenticationError);
  });
});
