import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  ApplicationAutoScalingClient,
  PutScalingPolicyCommand,
  RegisterScalableTargetCommand,
} from "@aws-sdk/client-application-auto-scaling";
import {
  CreateEndpointCommand,
  CreateEndpointConfigCommand,
  CreateModelCommand,
  DescribeEndpointCommand,
  DescribeEndpointConfigCommand,
  SageMakerClient,
  UpdateEndpointWeightsAndCapacitiesCommand,
} from "@aws-sdk/client-sagemaker";
import {
  InvokeEndpointCommand,
  InvokeEndpointWithResponseStreamCommand,
  ModelError,
  SageMakerRuntimeClient,
} from "@aws-sdk/client-sagemaker-runtime";
import { mockClient } from "aws-sdk-client-mock";
import "aws-sdk-client-mock-vitest/extend";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { closeConsoleStore, consoleStore } from "@/server/store/console-database.ts";
import { cpuDeploy } from "@/tests/support/endpoints/fixtures.ts";
import { scoredRun } from "@/tests/support/evaluate/scored-run.ts";

// Route handlers build their clients and database from the environment, as in a running console.
// `server-only` throws outside a React Server Components bundle; Next.js, not vitest, enforces it.
vi.mock("server-only", () => ({}));

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "endpoint-routes-"));
const saved = { ...process.env };
const sageMaker = mockClient(SageMakerClient);
const runtime = mockClient(SageMakerRuntimeClient);
const autoScaling = mockClient(ApplicationAutoScalingClient);

let endpoints: typeof import("./route.ts");
let endpoint: typeof import("./[name]/route.ts");
let invoke: typeof import("./[name]/invoke/route.ts");
let threshold: typeof import("./[name]/threshold/route.ts");
let evaluation: typeof import("./[name]/evaluation/route.ts");
let invocations: typeof import("./[name]/invocations/route.ts");
let autoscaling: typeof import("./[name]/autoscaling/route.ts");
let metrics: typeof import("./[name]/metrics/route.ts");
let health: typeof import("../health/route.ts");

const base = "http://127.0.0.1:3000";
const params = (name: string) => ({ params: Promise.resolve({ name }) });
const send = (url: string, body: unknown, method = "POST", type = "application/json") =>
  new Request(`${base}${url}`, {
    method,
    headers: { "content-type": type },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const get = (url: string) => new Request(`${base}${url}`);

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

async function rowCount(table: "audit_log" | "console_invocations"): Promise<number> {
  const { n } = await consoleStore()
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return n;
}

beforeAll(async () => {
  Object.assign(process.env, {
    CONSOLE_DATA_DIR: dataDir,
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "test",
    AWS_SECRET_ACCESS_KEY: "test",
    SAGEMAKER_EXECUTION_ROLE_ARN: "arn:aws:iam::123456789012:role/sm",
    CONSOLE_MODE: "local",
  });
  endpoints = await import("./route.ts");
  endpoint = await import("./[name]/route.ts");
  invoke = await import("./[name]/invoke/route.ts");
  threshold = await import("./[name]/threshold/route.ts");
  evaluation = await import("./[name]/evaluation/route.ts");
  invocations = await import("./[name]/invocations/route.ts");
  autoscaling = await import("./[name]/autoscaling/route.ts");
  metrics = await import("./[name]/metrics/route.ts");
  health = await import("../health/route.ts");
});

afterAll(async () => {
  await closeConsoleStore();
  process.env = saved;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  sageMaker.reset();
  runtime.reset();
  autoScaling.reset();
});

describe("GET /api/health", () => {
  it("reports ok, the mode the console was started in and versions", async () => {
    const response = await health.GET(get("/api/health"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: "ok",
      mode: "local",
      versions: { console: expect.any(String), node: process.versions.node },
    });
  });
});

describe("POST /api/endpoints", () => {
  it("rejects an image given by tag with a 400 naming the field, creates nothing and audits nothing", async () => {
    const auditBefore = await rowCount("audit_log");
    const response = await endpoints.POST(
      send(
        "/api/endpoints",
        cpuDeploy({ imageUri: "123456789012.dkr.ecr.us-east-1.amazonaws.com/decision-adapter:cpu" }),
      ),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toMatch(/^imageUri: must be pinned by digest/);
    expect(sageMaker).not.toHaveReceivedAnyCommand();
    expect(await rowCount("audit_log")).toBe(auditBefore);
  });

  it("rejects unknown fields, a non-JSON body and the wrong content type", async () => {
    const extra = await endpoints.POST(send("/api/endpoints", { ...cpuDeploy(), networkIsolation: false }));
    expect(extra.status).toBe(400);
    expect((await errorOf(extra)).message).toMatch(/networkIsolation/);
    expect((await endpoints.POST(send("/api/endpoints", "{not json"))).status).toBe(400);
    expect((await endpoints.POST(send("/api/endpoints", "name=x", "POST", "text/plain"))).status).toBe(415);
    expect(sageMaker).not.toHaveReceivedAnyCommand();
  });

  it("deploys a valid request (202) and writes one audit line", async () => {
    sageMaker
      .on(DescribeEndpointCommand)
      .rejects(Object.assign(new Error('Could not find endpoint "demo".'), { name: "ValidationException" }));
    sageMaker.on(CreateModelCommand).resolves({ ModelArn: "arn:model" });
    sageMaker.on(CreateEndpointConfigCommand).resolves({ EndpointConfigArn: "arn:config" });
    sageMaker.on(CreateEndpointCommand).resolves({ EndpointArn: "arn:endpoint" });
    const auditBefore = await rowCount("audit_log");
    const response = await endpoints.POST(send("/api/endpoints", cpuDeploy()));
    expect(response.status).toBe(202);
    expect(await response.json()).toMatchObject({ name: "demo", status: "Creating" });
    expect(await rowCount("audit_log")).toBe(auditBefore + 1);
  });
});

describe("endpoint routes' bad input", () => {
  it("rejects a name SageMaker would refuse before any AWS call", async () => {
    const response = await endpoint.GET(get("/api/endpoints/bad_name"), params("bad_name"));
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toMatch(/letters, digits and hyphens/);
    expect(sageMaker).not.toHaveReceivedAnyCommand();
  });

  it("rejects scaling to zero instances", async () => {
    const response = await endpoint.PATCH(send("/api/endpoints/demo", { instanceCount: 0 }, "PATCH"), params("demo"));
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toBe("instanceCount: must be at least 1");
    expect(sageMaker).not.toHaveReceivedCommand(UpdateEndpointWeightsAndCapacitiesCommand);
  });

  it("refuses to delete while Creating with 409", async () => {
    sageMaker.on(DescribeEndpointCommand).resolves({ EndpointName: "demo", EndpointStatus: "Creating" });
    const response = await endpoint.DELETE(send("/api/endpoints/demo", "", "DELETE"), params("demo"));
    expect(response.status).toBe(409);
    expect((await errorOf(response)).message).toMatch(/is Creating/);
  });

  it("rejects autoscaling with max below min and registers nothing", async () => {
    const response = await autoscaling.PUT(
      send(
        "/api/endpoints/demo/autoscaling",
        { minCapacity: 3, maxCapacity: 1, targetInvocationsPerInstance: 10 },
        "PUT",
      ),
      params("demo"),
    );
    expect(response.status).toBe(400);
    expect(autoScaling).not.toHaveReceivedCommand(RegisterScalableTargetCommand);
    expect(autoScaling).not.toHaveReceivedCommand(PutScalingPolicyCommand);
  });

  it("refuses scale to zero for a real-time endpoint (400) and registers nothing", async () => {
    sageMaker.on(DescribeEndpointCommand).resolves({ EndpointName: "demo", EndpointConfigName: "demo" });
    sageMaker.on(DescribeEndpointConfigCommand).resolves({ EndpointConfigName: "demo", ProductionVariants: [] });
    const response = await autoscaling.PUT(
      send("/api/endpoints/demo/autoscaling", { minCapacity: 0, maxCapacity: 2, scaleToZero: true }, "PUT"),
      params("demo"),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toMatch(/^scaleToZero: "demo" is a real-time endpoint\./);
    expect(autoScaling).not.toHaveReceivedCommand(RegisterScalableTargetCommand);
  });

  it("rejects a metrics window outside its bounds", async () => {
    const response = await metrics.GET(get("/api/endpoints/demo/metrics?minutes=1"), params("demo"));
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toMatch(/^minutes:/);
  });
});

/** SageMaker's DescribeEndpoint: one endpoint, `demo`, found in any case as SageMaker finds it; others do not exist. */
function onlyDemoExists() {
  sageMaker.on(DescribeEndpointCommand).callsFake(async (input: { EndpointName: string }) => {
    if (input.EndpointName.toLowerCase() === "demo") return { EndpointName: "demo", EndpointStatus: "InService" };
    throw Object.assign(new Error(`Could not find endpoint "${input.EndpointName}".`), { name: "ValidationException" });
  });
}

describe("POST /api/endpoints/[name]/invoke", () => {
  const decision = { decision: { id: "d", state: "s", question: "q", options: [{ id: "a" }, { id: "b" }] } };
  beforeEach(onlyDemoExists);

  it("invokes an endpoint named in another case by its own name (names ignore case; invocations must match it)", async () => {
    runtime.on(InvokeEndpointCommand).resolves({
      Body: new TextEncoder().encode("{}") as never,
      ContentType: "application/json",
    });
    const response = await invoke.POST(send("/api/endpoints/DEMO/invoke", { body: decision }), params("DEMO"));
    expect(response.status).toBe(200);
    expect(runtime).toHaveReceivedCommandWith(InvokeEndpointCommand, { EndpointName: "demo" });
  });

  it("answers 404 naming an endpoint that does not exist, and invokes nothing", async () => {
    const response = await invoke.POST(send("/api/endpoints/ghost/invoke", { body: decision }), params("ghost"));
    expect(response.status).toBe(404);
    expect((await errorOf(response)).message).toBe(
      'Endpoint "ghost" does not exist (endpoint names are compared ignoring case).',
    );
    expect(runtime).not.toHaveReceivedAnyCommand();
  });

  it("rejects a body that is not an object and records no invocation", async () => {
    const before = await rowCount("console_invocations");
    const response = await invoke.POST(send("/api/endpoints/demo/invoke", { body: "text" }), params("demo"));
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toMatch(/^body:/);
    expect(runtime).not.toHaveReceivedAnyCommand();
    expect(await rowCount("console_invocations")).toBe(before);
  });

  it("returns the container's answer and lists the call under recent invocations", async () => {
    runtime.on(InvokeEndpointCommand).resolves({
      Body: new TextEncoder().encode(JSON.stringify({ results: [{ probabilities: { a: 0.9, b: 0.1 } }] })) as never,
      ContentType: "application/json",
    });
    const response = await invoke.POST(send("/api/endpoints/demo/invoke", { body: decision }), params("demo"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ results: [{ probabilities: { a: 0.9, b: 0.1 } }] });
    const list = await invocations.GET(get("/api/endpoints/demo/invocations"), params("demo"));
    const [latest] = (
      (await list.json()) as { invocations: { status: number; user: string; requestPreview: string }[] }
    ).invocations;
    expect(latest).toMatchObject({ status: 200, user: "local", requestPreview: JSON.stringify(decision) });
  });

  it("passes the container's bytes and content type unchanged, with the invoke's metadata in headers", async () => {
    const answer = '{ "results": [ {"probabilities": {"a": 0.9, "b": 0.1}} ] }\n';
    runtime.on(InvokeEndpointCommand).resolves({
      Body: new TextEncoder().encode(answer) as never,
      ContentType: "application/json; charset=utf-8",
      InvokedProductionVariant: "Blue",
    });
    const response = await invoke.POST(send("/api/endpoints/demo/invoke", { body: decision }), params("demo"));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(answer);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("x-invoked-variant")).toBe("Blue");
    expect(response.headers.get("x-busy-retries")).toBe("0");
    expect(response.headers.get("server-timing")).toMatch(/^invoke;dur=\d+(\.\d+)?$/);
  });

  it("answers a stream with the same metadata headers as a plain invoke", async () => {
    async function* parts() {
      yield { PayloadPart: { Bytes: new TextEncoder().encode('data: {"a":1}\n\n') } };
    }
    runtime
      .on(InvokeEndpointWithResponseStreamCommand)
      .resolves({ Body: parts() as never, ContentType: "text/event-stream", InvokedProductionVariant: "Blue" });
    const chat = { messages: [{ role: "user", content: "hi" }], stream: true };
    const response = await invoke.POST(
      send("/api/endpoints/demo/invoke", { body: chat, stream: true }),
      params("demo"),
    );
    expect(await response.text()).toBe('data: {"a":1}\n\n');
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("x-invoked-variant")).toBe("Blue");
    expect(response.headers.get("x-busy-retries")).toBe("0");
    expect(response.headers.get("server-timing")).toMatch(/^invoke;dur=\d+(\.\d+)?$/);
  });

  it("answers with the container's status and message for a ModelError, and records it", async () => {
    runtime.on(InvokeEndpointCommand).rejects(
      new ModelError({
        $metadata: { httpStatusCode: 424 },
        message: "Received client error (400)",
        OriginalStatusCode: 400,
        OriginalMessage: JSON.stringify({ error: "Decision IDs must be unique" }),
      }),
    );
    const response = await invoke.POST(send("/api/endpoints/demo/invoke", { body: decision }), params("demo"));
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: "bad_request", message: "Decision IDs must be unique" });
    const list = await invocations.GET(get("/api/endpoints/demo/invocations?limit=1"), params("demo"));
    const [latest] = ((await list.json()) as { invocations: { status: number; error: string }[] }).invocations;
    expect(latest).toMatchObject({ status: 400, error: "Decision IDs must be unique" });
  });
});

describe("POST /api/endpoints/[name]/evaluation", () => {
  beforeEach(onlyDemoExists);
  const choose = (name: string, body: unknown) =>
    evaluation.POST(send(`/api/endpoints/${name}/evaluation`, body), params(name));
  const completedRunOf = (endpointName: string) =>
    scoredRun(consoleStore(), {
      endpoints: [endpointName],
      question: "q",
      options: ["a", "b"],
      answers: ["a"],
      probabilities: [0.7, 0.3],
    });

  it("links the endpoint, under its own spelling, to a completed run of it, and audits the choice", async () => {
    const runId = await completedRunOf("demo");
    const response = await choose("Demo", { runId });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ endpointName: "demo", runId, why: "chosen", by: "local" });
    const audit = await consoleStore()
      .selectFrom("audit_log")
      .select(["action", "target", "result"])
      .where("action", "=", "endpoint.evaluation.choose")
      .execute();
    expect(audit).toEqual([{ action: "endpoint.evaluation.choose", target: "Demo", result: "ok" }]);
  });

  it("refuses a missing run id, an unknown run and an endpoint that does not exist, with a 4xx each", async () => {
    const missing = await choose("demo", {});
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).message).toContain("runId");
    const unknown = await choose("demo", { runId: "no-such-run" });
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).message).toBe("runId: there is no evaluation run no-such-run.");
    const ghost = await choose("ghost", { runId: await completedRunOf("ghost") });
    expect(ghost.status).toBe(404);
    expect((await errorOf(ghost)).message).toContain('Endpoint "ghost" does not exist');
  });
});

describe("PUT /api/endpoints/[name]/threshold", () => {
  beforeEach(onlyDemoExists);
  const put = (name: string, value: number) =>
    threshold.PUT(send(`/api/endpoints/${name}/threshold`, { threshold: value }, "PUT"), params(name));

  it("keeps one threshold per endpoint whatever the case it is named in", async () => {
    expect(await (await put("demo", 0.6)).json()).toMatchObject({ endpointName: "demo", threshold: 0.6 });
    const other = await put("Demo", 0.7);
    expect(other.status).toBe(200);
    expect(await other.json()).toMatchObject({ endpointName: "demo", threshold: 0.7 });
    const rows = await consoleStore()
      .selectFrom("endpoint_thresholds")
      .select(["endpoint_name", "threshold"])
      .execute();
    expect(rows.filter((row) => row.endpoint_name.toLowerCase() === "demo")).toEqual([
      { endpoint_name: "demo", threshold: 0.7 },
    ]);
  });

  it("refuses a threshold for an endpoint that does not exist with a 404, and stores nothing", async () => {
    const response = await put("ghost", 0.6);
    expect(response.status).toBe(404);
    expect((await errorOf(response)).message).toBe(
      'Endpoint "ghost" does not exist (endpoint names are compared ignoring case).',
    );
    const rows = await consoleStore().selectFrom("endpoint_thresholds").select("endpoint_name").execute();
    expect(rows.map((row) => row.endpoint_name)).not.toContain("ghost");
  });
});
