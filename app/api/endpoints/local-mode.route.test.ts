import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DescribeAlarmsCommand } from "@aws-sdk/client-cloudwatch";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import {
  AddTagsCommand,
  DeleteEndpointCommand,
  DescribeEndpointCommand,
  SageMakerClient,
} from "@aws-sdk/client-sagemaker";
import {
  type ControlPlane,
  freePort,
  localAwsEnvironment,
  localClientConfig,
  startControlPlane,
} from "@decision-console/local-aws";
import { createEndpoint, testExecutionRoleArn, testStackFixture } from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Build, BuildList, BuildLogs } from "@/contract/builds/builds.ts";
import type { EndpointDetail, EndpointList } from "@/contract/endpoints/endpoint.ts";
import type { EndpointLogs } from "@/contract/endpoints/logs.ts";
import type { ImageList } from "@/contract/images/images.ts";
import { consoleClientsFor } from "@/server/aws/local-console-clients.ts";
import { newestEvaluationLink, recordEvaluationLink } from "@/server/endpoints/evaluation-link.ts";
import { putStandardAlarms } from "@/server/endpoints/rollback-alarms.ts";
import { storedThreshold, storeThreshold } from "@/server/monitoring/endpoint-threshold.ts";
import { closeConsoleStore } from "@/server/store/console-database.ts";

// `server-only` throws outside a React Server Components bundle; Next.js, not vitest, enforces it.
vi.mock("server-only", () => ({}));

/**
 * The console's route handlers against the real local control plane over loopback, with no mocks: the wire shapes
 * the SDK sends and parses must match what server/ expects. No model is loaded here.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "console-local-routes-"));
const saved = { ...process.env };
let plane: ControlPlane;
let endpoints: typeof import("./route.ts");
let endpoint: typeof import("./[name]/route.ts");
let endpointLogs: typeof import("./[name]/logs/route.ts");
let images: typeof import("../images/route.ts");
let builds: typeof import("../builds/route.ts");
let build: typeof import("../builds/[id]/route.ts");
let buildLogs: typeof import("../builds/[id]/logs/route.ts");
let health: typeof import("../health/route.ts");
let context: typeof import("@/server/context.ts");
let list: typeof import("@/server/endpoints/list.ts");
let manage: typeof import("@/server/endpoints/manage.ts");

const base = "http://127.0.0.1:3000";
const get = (url: string) => new Request(`${base}${url}`);
const send = (url: string, body: unknown, method = "POST") =>
  new Request(`${base}${url}`, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const named = (name: string) => ({ params: Promise.resolve({ name }) });
// Next.js hands route handlers their path parameters decoded.
const byId = (id: string) => ({ params: Promise.resolve({ id }) });

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  plane = await startControlPlane({
    fixture: testStackFixture(),
    dataDir: path.join(dataDir, "aws"),
    port: 0,
    waitForEndpoints: false,
  });
  Object.assign(process.env, localAwsEnvironment(plane), { CONSOLE_DATA_DIR: path.join(dataDir, "console") });
  endpoints = await import("./route.ts");
  endpoint = await import("./[name]/route.ts");
  endpointLogs = await import("./[name]/logs/route.ts");
  images = await import("../images/route.ts");
  builds = await import("../builds/route.ts");
  build = await import("../builds/[id]/route.ts");
  buildLogs = await import("../builds/[id]/logs/route.ts");
  health = await import("../health/route.ts");
  context = await import("@/server/context.ts");
  list = await import("@/server/endpoints/list.ts");
  manage = await import("@/server/endpoints/manage.ts");
});

afterAll(async () => {
  await plane?.close();
  await closeConsoleStore();
  process.env = saved;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("console routes on the local control plane", () => {
  it("lists the local adapter images as digest-pinned URIs", async () => {
    const list = (await (await images.GET(get("/api/images"))).json()) as ImageList;
    const cpu = list.images.find((image) => image.tags.includes("cpu"));
    expect(cpu?.imageUri).toMatch(/\/decision-adapter@sha256:[0-9a-f]{64}$/);
    expect(cpu).toMatchObject({ apiMode: "decision", source: "ecr", variant: "cpu" });
    const dlc = list.images.filter((image) => image.source === "dlc");
    expect(dlc.map((image) => [image.variant, image.apiMode])).toEqual([
      ["cpu", "chat"],
      ["cuda", "chat"],
    ]);
    expect(dlc[0]?.imageUri).toMatch(/^763104351884\.dkr\.ecr\.us-east-1\.amazonaws\.com\/llama-cpp@sha256:/);
  });

  it("refuses an image SageMaker cannot pull (400), naming the regional DLC repository", async () => {
    const refused = await endpoints.POST(
      send("/api/endpoints", {
        name: "dc-public-dlc",
        apiMode: "chat",
        imageUri: `public.ecr.aws/deep-learning-containers/llama-cpp@sha256:${"a".repeat(64)}`,
        modelDataUrl: "s3://decision-console-local/models/none/model.tar.gz",
        compute: { kind: "cpu", instanceType: "ml.c6i.2xlarge", threads: 1 },
      }),
    );
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain("763104351884.dkr.ecr.us-east-1.amazonaws.com/llama-cpp");
  });

  it("runs an image build and reads its phases, exported digest and log", async () => {
    const started = await builds.POST(send("/api/builds", { kind: "image", variant: "cpu" }));
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as Build;
    const finished = await until(
      async () => (await (await build.GET(get(`/api/builds/${id}`), byId(id))).json()) as Build,
      (b) => b.status !== "IN_PROGRESS",
    );
    expect(finished).toMatchObject({ kind: "image", variant: "cpu", status: "SUCCEEDED" });
    expect(finished.outputs.imageDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(finished.phases.length).toBeGreaterThan(0);
    // The source archive the console uploaded for it, as BatchGetBuilds answers it.
    expect(finished.source).toMatchObject({
      type: "S3",
      location: expect.stringMatching(/^decision-console-local\/build-sources\/[0-9a-f]{64}\.zip$/),
    });
    const logs = (await (await buildLogs.GET(get(`/api/builds/${id}/logs`), byId(id))).json()) as BuildLogs;
    expect(logs.lines.length).toBeGreaterThan(0);
    const list = (await (await builds.GET(get("/api/builds"))).json()) as BuildList;
    expect(list.builds.map((b) => b.id)).toContain(id);
  });

  it("deploys, shows the failure reason of a model that is not in S3, and deletes all three resources", async () => {
    const list = (await (await images.GET(get("/api/images"))).json()) as ImageList;
    const imageUri = list.images.find((image) => image.tags.includes("cpu"))!.imageUri;
    const deployed = await endpoints.POST(
      send("/api/endpoints", {
        name: "dc-missing-model",
        imageUri,
        modelDataUrl: "s3://decision-console-local/models/none/model.tar.gz",
        compute: { kind: "cpu", instanceType: "ml.c6i.2xlarge", threads: 1 },
      }),
    );
    expect(deployed.status).toBe(202);
    const detail = await until(
      async () =>
        (await (
          await endpoint.GET(get("/api/endpoints/dc-missing-model"), named("dc-missing-model"))
        ).json()) as EndpointDetail,
      (d) => d.status !== "Creating",
    );
    expect(detail.status).toBe("Failed");
    expect(detail.failureReason).toBeTruthy();
    expect(detail.model).toMatchObject({ imageUri, networkIsolation: true });
    expect(detail.variants[0]).toMatchObject({ instanceType: "ml.c6i.2xlarge", startupTimeoutSeconds: 900 });
    const table = (await (await endpoints.GET(get("/api/endpoints"))).json()) as EndpointList;
    expect(table.endpoints.map((e) => [e.name, e.status])).toEqual([["dc-missing-model", "Failed"]]);
    // The endpoint's log group holds why it failed, and the console's log viewer reads it with its own policy.
    const logs = (await (
      await endpointLogs.GET(get("/api/endpoints/dc-missing-model/logs?minutes=15"), named("dc-missing-model"))
    ).json()) as EndpointLogs;
    expect(logs).toMatchObject({ logGroupName: "/aws/sagemaker/Endpoints/dc-missing-model", logGroupExists: true });
    expect(logs.events.map((e) => e.message).join("\n")).toContain(detail.failureReason ?? "?");
    const badPattern = await endpointLogs.GET(
      get(`/api/endpoints/dc-missing-model/logs?filterPattern=${encodeURIComponent("{ $.status = 500 }")}`),
      named("dc-missing-model"),
    );
    expect(badPattern.status).toBe(400);

    // The console's rollback alarms of the endpoint (from an update), and those of an endpoint whose name starts
    // with this one's, which stay.
    const { cloudWatch } = consoleClientsFor(plane);
    const guards = { kind: "standard", latencyAverageMs: 100, max5xxPerMinute: 0, maxModelErrorsPerMinute: 0 } as const;
    const created = await putStandardAlarms(cloudWatch, "dc-missing-model", "AllTraffic", guards, "real-time");
    const neighbours = await putStandardAlarms(cloudWatch, "dc-missing-model-2", "AllTraffic", guards, "real-time");
    // What the console keeps about the endpoint, which a new endpoint of the same name must not inherit.
    const { store } = context.consoleContext();
    await storeThreshold(store, "dc-missing-model", 0.6, "ops");
    await recordEvaluationLink(store, "dc-missing-model", "run-kept", { why: "chosen", by: "ops" });
    const deleted = await endpoint.DELETE(
      send("/api/endpoints/dc-missing-model", {}, "DELETE"),
      named("dc-missing-model"),
    );
    expect(await deleted.json()).toEqual({
      deleted: {
        endpoint: "dc-missing-model",
        endpointConfig: "dc-missing-model",
        model: "dc-missing-model",
        alarms: created,
        settings: { evaluationLinks: 1, threshold: true, driftBaselines: 0 },
      },
    });
    expect(await storedThreshold(store, "dc-missing-model")).toBeNull();
    expect(await newestEvaluationLink(store, "dc-missing-model")).toBeNull();
    const gone = await endpoint.GET(get("/api/endpoints/dc-missing-model"), named("dc-missing-model"));
    expect(gone.status).toBe(404);
    const left = await cloudWatch.send(new DescribeAlarmsCommand({ AlarmNamePrefix: "dc-missing-model" }));
    expect(left.MetricAlarms?.map((alarm) => alarm.AlarmName)).toEqual(neighbours);
    cloudWatch.destroy();
  });

  it('refuses the probe: a ".." key under an uncompressed prefix deployed with "compression": "None"', async () => {
    const victim = path.join(dataDir, "aws", "victim");
    const s3 = new S3Client({ ...localClientConfig(plane), forcePathStyle: true });
    await expect(
      s3.send(
        new PutObjectCommand({ Bucket: "decision-console-local", Key: "models/p/../../../../victim", Body: "x" }),
      ),
    ).rejects.toMatchObject({ name: "InvalidArgument", $metadata: { httpStatusCode: 400 } });
    await s3.send(new PutObjectCommand({ Bucket: "decision-console-local", Key: "models/p/model.gguf", Body: "GGUF" }));
    const list = (await (await images.GET(get("/api/images"))).json()) as ImageList;
    const deployed = await endpoints.POST(
      send("/api/endpoints", {
        name: "dc-uncompressed",
        imageUri: list.images.find((image) => image.tags.includes("cpu"))!.imageUri,
        modelDataUrl: "s3://decision-console-local/models/p/",
        compression: "None",
        compute: { kind: "cpu", instanceType: "ml.c6i.2xlarge", threads: 1 },
      }),
    );
    expect(deployed.status).toBe(202);
    const detail = await until(
      async () =>
        (await (
          await endpoint.GET(get("/api/endpoints/dc-uncompressed"), named("dc-uncompressed"))
        ).json()) as EndpointDetail,
      (d) => d.status !== "Creating",
    );
    expect(detail.status).toBe("Failed");
    expect(fs.existsSync(victim)).toBe(false);
    expect(plane.traffic.failed).toBe(0);
  });

  it("lists another team's endpoint; the console profile is denied deleting it and an action outside its policy", async () => {
    // Another team in the same account (the admin profile) runs an endpoint outside the console's prefix.
    const otherTeam = new SageMakerClient(localClientConfig(plane, "admin"));
    await createEndpoint(
      otherTeam,
      "team-b-ranker",
      {
        Image: "000000000000.dkr.ecr.us-east-1.amazonaws.com/decision-adapter:cpu",
        ModelDataUrl: "s3://decision-console-local/models/team-b/model.tar.gz",
      },
      { executionRoleArn: testExecutionRoleArn() },
    );
    expect(process.env.CONSOLE_RESOURCE_PREFIX).toBe("dc-");

    const listed = await endpoints.GET(get("/api/endpoints"));
    expect(listed.status).toBe(200);
    const table = (await listed.json()) as EndpointList;
    expect(table.endpoints.find((e) => e.name === "team-b-ranker")).toMatchObject({
      managed: false,
      imageDigest: null,
    });
    const { aws, settings } = context.consoleContext();
    const direct = await list.listEndpoints(aws.sageMaker, undefined, settings.resourceNamePrefix);
    expect(direct.endpoints.map((e) => [e.name, e.managed])).toContainEqual(["team-b-ranker", false]);

    const denied = await endpoint.DELETE(send("/api/endpoints/team-b-ranker", {}, "DELETE"), named("team-b-ranker"));
    expect(denied.status).toBe(403);
    expect(JSON.stringify(await denied.json())).toContain("AccessDeniedException");
    await expect(manage.deleteEndpoint(aws, "team-b-ranker")).rejects.toMatchObject({
      status: 403,
      details: { awsError: "AccessDeniedException" },
    });
    const asConsole = new SageMakerClient(localClientConfig(plane, "console"));
    await expect(asConsole.send(new DeleteEndpointCommand({ EndpointName: "team-b-ranker" }))).rejects.toMatchObject({
      name: "AccessDeniedException",
      message:
        "User: arn:aws:iam::000000000000:user/decision-console is not authorized to perform: sagemaker:DeleteEndpoint on resource: arn:aws:sagemaker:us-east-1:000000000000:endpoint/team-b-ranker because no identity-based policy allows the sagemaker:DeleteEndpoint action",
    });
    // An action the policy does not grant at all, on a name it does cover.
    await expect(
      asConsole.send(
        new AddTagsCommand({
          ResourceArn: "arn:aws:sagemaker:us-east-1:000000000000:endpoint/dc-missing-model",
          Tags: [{ Key: "team", Value: "b" }],
        }),
      ),
    ).rejects.toMatchObject({ name: "AccessDeniedException", message: expect.stringContaining("sagemaker:AddTags") });
    expect((await otherTeam.send(new DescribeEndpointCommand({ EndpointName: "team-b-ranker" }))).EndpointName).toBe(
      "team-b-ranker",
    );
    await plane.endpoints.settled("team-b-ranker");
  });

  it("reports the control plane's state in /api/health, and 503 degraded when it does not answer", async () => {
    const ok = await health.GET(get("/api/health"));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ status: "ok", mode: "local", controlPlane: { status: "ok" } });
    const saved = process.env.CONSOLE_CONTROL_PLANE_HEALTH_URL;
    process.env.CONSOLE_CONTROL_PLANE_HEALTH_URL = `http://127.0.0.1:${await freePort()}/_local/health`;
    try {
      const down = await health.GET(get("/api/health"));
      expect(down.status).toBe(503);
      const body = (await down.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ status: "degraded", controlPlane: { status: "unreachable" } });
      expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|local-aws|credentials/);
    } finally {
      process.env.CONSOLE_CONTROL_PLANE_HEALTH_URL = saved;
    }
  });
});
