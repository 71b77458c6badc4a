import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GetMetricDataCommand } from "@aws-sdk/client-cloudwatch";
import { CloudWatchLogsClient, GetLogEventsCommand } from "@aws-sdk/client-cloudwatch-logs";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { DeleteEndpointCommand, DescribeEndpointCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import {
  type ControlPlane,
  type HubStandIn,
  localClientConfig,
  publishHubFile,
  startControlPlane,
  startHubStandIn,
} from "@decision-console/local-aws";
import {
  createEndpoint,
  localAdapterImageUri,
  routeDecision,
  testExecutionRoleArn,
  testStackFixture,
  writeTinyModel,
} from "@decision-console/local-aws/testing";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StartBuildRequest } from "../../contract/builds/builds.ts";
import { deployRequestSchema } from "../../contract/endpoints/deploy.ts";
import { endpointLogsQuerySchema } from "../../contract/endpoints/logs.ts";
import { metricsQuerySchema } from "../../contract/endpoints/metrics.ts";
import { configureAutoscaling, describeAutoscaling } from "../../server/autoscaling/variant-scaling.ts";
import { consoleClientsFor } from "../../server/aws/local-console-clients.ts";
import { buildSourceFiles } from "../../server/builds/build-sources.ts";
import { getBuild, startBuild } from "../../server/builds/builds.ts";
import { uploadBuildSources } from "../../server/builds/source-upload.ts";
import { deployEndpoint } from "../../server/endpoints/deploy.ts";
import { invokeEndpoint, invokeEndpointStream } from "../../server/invoke/invoke.ts";
import { endpointLogs } from "../../server/logs/endpoint-logs.ts";
import { endpointMetrics } from "../../server/metrics/endpoint-metrics.ts";

const LOCAL_ARTIFACT_BUCKET = testStackFixture().bucket;

/**
 * The whole local path with the real SDK clients and the console's own server/ functions: package a generated
 * GGUF from a Hub stand-in, deploy it through an instance-pool fallback, invoke, stream, restart, scale, delete.
 */
const projects = {
  modelPackageProject: "decision-console-model-package",
  imageBuildProject: "decision-console-image-build",
};
/** The console's endpoint: named with the prefix the local stack's console policy allows. */
const ENDPOINT = "dc-tiny-pools";
const pin = { repo: "local-test/tiny", revision: "1".repeat(40), file: "tiny.gguf" };
const decision = routeDecision;

/** Addresses with a listening TCP socket on `port`, from /proc/net/tcp and tcp6 (what `ss -ltn` reads). */
function listeningAddresses(port: number): string[] {
  const addresses: string[] = [];
  for (const [file, family] of [
    ["/proc/net/tcp", 4],
    ["/proc/net/tcp6", 6],
  ] as const) {
    if (!fs.existsSync(file)) continue;
    for (const line of fs.readFileSync(file, "utf8").split("\n").slice(1)) {
      const [, local = "", , state] = line.trim().split(/\s+/);
      const [hexAddress = "", hexPort = ""] = local.split(":");
      if (state !== "0A" || Number.parseInt(hexPort, 16) !== port) continue;
      if (family === 4)
        addresses.push(
          (hexAddress.match(/../g) ?? [])
            .reverse()
            .map((byte) => Number.parseInt(byte, 16))
            .join("."),
        );
      else addresses.push(hexAddress === "0".repeat(32) ? "::" : `ipv6:${hexAddress}`);
    }
  }
  return addresses.sort();
}

let dataDir: string;
let hub: HubStandIn;
let plane: ControlPlane;
let ggufSha256: string;
let modelDataUrl: string;

/** The console's functions sign as the console does: its own profile, not the admin's. */
function clients() {
  return consoleClientsFor(plane);
}

function openPlane() {
  return startControlPlane({
    fixture: testStackFixture(),
    dataDir,
    port: 0,
    shortCapacity: ["ml.g6e.xlarge"],
    hfEndpoint: hub.url,
  });
}

/** An endpoint of the cpu adapter image, as a caller of the SDK creates one, once provisioning has settled. */
async function createAdapterEndpoint(
  sageMaker: SageMakerClient,
  name: string,
  container: { ModelDataUrl: string; Environment: Record<string, string> },
) {
  await createEndpoint(
    sageMaker,
    name,
    { Image: localAdapterImageUri(plane), ...container },
    { executionRoleArn: testExecutionRoleArn() },
  );
  return describe_(name, sageMaker);
}

/** What the console's POST /api/builds does: upload the build's sources, then start it from them. */
async function startConsoleBuild(request: StartBuildRequest) {
  const { codeBuild, s3 } = clients();
  const root = path.resolve(import.meta.dirname, "..", "..");
  const source = await uploadBuildSources(s3, LOCAL_ARTIFACT_BUCKET, root, buildSourceFiles(root, request));
  return startBuild(codeBuild, projects, request, source);
}

async function describe_(name: string, sageMaker = clients().sageMaker) {
  await plane.endpoints.settled(name);
  return sageMaker.send(new DescribeEndpointCommand({ EndpointName: name }));
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-endpoints-"));
  const gguf = path.join(dataDir, "tiny.gguf");
  writeTinyModel(gguf);
  ggufSha256 = createHash("sha256").update(fs.readFileSync(gguf)).digest("hex");
  publishHubFile(path.join(dataDir, "hub"), pin, gguf);
  hub = await startHubStandIn({ root: path.join(dataDir, "hub") });
  plane = await openPlane();
});

afterAll(async () => {
  await plane?.close();
  await hub?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("local endpoints end to end", { timeout: 120_000 }, () => {
  it("packages a pinned GGUF from the Hub stand-in into the local S3 and exports its location", async () => {
    const { codeBuild } = clients();
    const started = await startConsoleBuild({
      kind: "model",
      gguf: { ...pin, sha256: ggufSha256 },
      compression: "Gzip",
    });
    await plane.builds.settled(started.id);
    const build = await getBuild(codeBuild, projects, started.id);
    expect(build.status).toBe("SUCCEEDED");
    expect(build.outputs.modelSha256).toBe(ggufSha256);
    expect(build.outputs.modelDataUrl).toBe(`s3://${LOCAL_ARTIFACT_BUCKET}/models/${ggufSha256}/gzip/model.tar.gz`);
    modelDataUrl = build.outputs.modelDataUrl!;
  });

  it("refuses to package a Hub file whose sha256 does not match the pin", async () => {
    const { codeBuild } = clients();
    const started = await startConsoleBuild({
      kind: "model",
      gguf: { ...pin, sha256: "f".repeat(64) },
      compression: "Gzip",
    });
    await plane.builds.settled(started.id);
    const build = await getBuild(codeBuild, projects, started.id);
    expect(build.status).toBe("FAILED");
    expect(build.outputs.modelDataUrl).toBeNull();
  });

  it("deploys through the instance-pool fallback to InService and answers a decision", async () => {
    const { sageMaker, runtime } = clients();
    const digest = plane.registry.digestForTag("decision-adapter", "cpu");
    const request = deployRequestSchema.parse({
      name: ENDPOINT,
      imageUri: localAdapterImageUri(plane),
      modelDataUrl,
      modelSha256: ggufSha256,
      compute: {
        kind: "gpu-pool",
        pools: [{ instanceType: "ml.g6e.xlarge" }, { instanceType: "ml.g6.2xlarge" }],
        threads: 1,
      },
      limits: { maxTokens: 512, maxRequestTokens: 1024 },
    });
    await deployEndpoint(sageMaker, request, {
      defaultExecutionRoleArn: testExecutionRoleArn(),
      resourceNamePrefix: plane.resourcePrefix,
    });
    const endpoint = await describe_(ENDPOINT);
    expect(endpoint.FailureReason).toBeUndefined();
    expect(endpoint.EndpointStatus).toBe("InService");
    expect(endpoint.ProductionVariants?.[0]?.InstancePools).toEqual([
      { InstanceType: "ml.g6e.xlarge", CurrentInstanceCount: 0 },
      { InstanceType: "ml.g6.2xlarge", CurrentInstanceCount: 1 },
    ]);
    expect(endpoint.ProductionVariants?.[0]?.DeployedImages?.[0]?.ResolvedImage).toContain(digest);

    const result = await invokeEndpoint(runtime, ENDPOINT, decision);
    const answer = (result.body as { result: { option_ids: string[]; probabilities: number[] } }).result;
    expect(result.invokedVariant).toBe("AllTraffic");
    expect(answer.option_ids).toEqual(["billing", "tech"]);
    expect(answer.probabilities.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);

    // The adapter's own output lands in the endpoint's log group, one stream per instance, where the console's
    // log viewer finds it with the console's credentials.
    const view = await endpointLogs(
      clients().logs,
      ENDPOINT,
      endpointLogsQuerySchema.parse({ filterPattern: '"ready"' }),
    );
    expect(view.events.map((event) => event.stream)).toEqual([expect.stringMatching(/^AllTraffic\//)]);
    expect(JSON.parse(view.events[0]?.message ?? "{}")).toMatchObject({ event: "ready" });
  });

  it("starts the adapter with only its documented variables and listening on 127.0.0.1 only", async () => {
    const admin = new SageMakerClient(localClientConfig(plane));
    const marker = path.join(dataDir, "evil-ran");
    const evil = path.join(dataDir, "evil.cjs");
    fs.writeFileSync(evil, `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");`);
    const endpoint = await createAdapterEndpoint(admin, "hostile-env", {
      ModelDataUrl: modelDataUrl,
      Environment: {
        NODE_OPTIONS: `--require ${evil}`,
        LD_PRELOAD: path.join(dataDir, "evil.so"),
        PATH: dataDir,
        HOME: "/root",
        ADAPTER_HOST: "0.0.0.0",
        ADAPTER_THREADS: "1",
        SEMIF_MAX_TOKENS: "512",
      },
    });
    expect(endpoint.FailureReason).toBeUndefined();
    expect(endpoint.EndpointStatus).toBe("InService");

    const instance = await plane.endpoints.pick("hostile-env");
    const environ = fs.readFileSync(`/proc/${instance!.pid}/environ`, "utf8").split("\0").filter(Boolean);
    const names = environ.map((entry) => entry.slice(0, entry.indexOf("="))).sort();
    expect(names).toEqual([
      "ADAPTER_HOST",
      "ADAPTER_THREADS",
      "HOME",
      "NODE_ENV",
      "NODE_LLAMA_CPP_SKIP_DOWNLOAD",
      "SAGEMAKER_BIND_TO_PORT",
      "SEMIF_MAX_TOKENS",
      "SM_MODEL_DIR",
    ]);
    expect(environ).toContain("ADAPTER_HOST=127.0.0.1");
    expect(environ.find((entry) => entry.startsWith("HOME="))).toContain(dataDir);
    expect(fs.existsSync(marker)).toBe(false);

    const port = Number(new URL(instance!.url).port);
    expect(listeningAddresses(port)).toEqual(["127.0.0.1"]);

    const { events } = await new CloudWatchLogsClient(localClientConfig(plane)).send(
      new GetLogEventsCommand({
        logGroupName: "/aws/sagemaker/Endpoints/hostile-env",
        logStreamName: "local-control-plane",
        startFromHead: true,
      }),
    );
    const notes = events?.map((event) => event.message).join("\n");
    expect(notes).toContain("environment variables not passed to the container: HOME, LD_PRELOAD, NODE_OPTIONS, PATH");
    expect(notes).toContain("ADAPTER_HOST set by local mode for each instance");
    await admin.send(new DeleteEndpointCommand({ EndpointName: "hostile-env" }));
    await plane.endpoints.settled("hostile-env");
  });

  it("surfaces a container 400 as ModelError with the original status and message", async () => {
    const { runtime } = clients();
    const broken = { decision: { ...decision.decision, options: [decision.decision.options[0]] } };
    const error = await invokeEndpoint(runtime, ENDPOINT, broken).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400 });
    expect(String((error as Error).message)).toContain("options must contain 2-255 entries");
  });

  it("streams a chat completion as PayloadPart events", async () => {
    const { runtime } = clients();
    const opened = await invokeEndpointStream(runtime, ENDPOINT, {
      messages: [{ role: "user", content: "Say hello" }],
      max_tokens: 4,
      stream: true,
    });
    const text = await new Response(opened.stream).text();
    expect(text).toMatch(/^data: /);
    expect(text.trim().endsWith("data: [DONE]")).toBe(true);
  });

  it("reports the invocations to CloudWatch", async () => {
    const { cloudWatch } = clients();
    const { MetricDataResults } = await cloudWatch.send(
      new GetMetricDataCommand({
        StartTime: new Date(Date.now() - 600_000),
        EndTime: new Date(Date.now() + 60_000),
        MetricDataQueries: ["Invocations", "Invocation4XXErrors"].map((metric, i) => ({
          Id: `m${i}`,
          MetricStat: {
            Metric: {
              Namespace: "AWS/SageMaker",
              MetricName: metric,
              Dimensions: [
                { Name: "EndpointName", Value: ENDPOINT },
                { Name: "VariantName", Value: "AllTraffic" },
              ],
            },
            Period: 3600,
            Stat: "Sum",
          },
        })),
      }),
    );
    const sum = (id: string) => MetricDataResults?.find((r) => r.Id === id)?.Values?.reduce((a, b) => a + b, 0);
    expect(sum("m0")).toBe(3);
    expect(sum("m1")).toBe(1);

    const charted = await endpointMetrics(cloudWatch, ENDPOINT, "AllTraffic", metricsQuerySchema.parse({}));
    const points = (metric: string) => charted.series.find((series) => series.metric === metric)?.points ?? [];
    expect(points("Invocations").reduce((total, point) => total + point.value, 0)).toBe(3);
    expect(points("ModelLatency").at(-1)?.value).toBeGreaterThan(0);
  });

  it("starts InService endpoints again after the control plane restarts on the same data directory", async () => {
    await plane.close();
    plane = await openPlane();
    const endpoint = await describe_(ENDPOINT);
    expect(endpoint.EndpointStatus).toBe("InService");
    const result = await invokeEndpoint(clients().runtime, ENDPOINT, decision);
    expect((result.body as { result: { option_ids: string[] } }).result.option_ids).toEqual(["billing", "tech"]);
  });

  it("replaces an instance whose adapter process died, as SageMaker replaces an unhealthy instance", async () => {
    const dead = await plane.endpoints.pick(ENDPOINT);
    process.kill(dead!.pid!, "SIGKILL");
    let replacement = await plane.endpoints.pick(ENDPOINT);
    for (let tries = 0; !replacement || replacement.pid === dead!.pid; tries++) {
      expect(tries).toBeLessThan(300);
      await new Promise((resolve) => setTimeout(resolve, 200));
      replacement = await plane.endpoints.pick(ENDPOINT);
    }
    const result = await invokeEndpoint(clients().runtime, ENDPOINT, decision);
    expect((result.body as { result: { option_ids: string[] } }).result.option_ids).toEqual(["billing", "tech"]);
  });

  it("stores autoscaling and raises the instance count to the target's minimum", async () => {
    const { autoScaling, cloudWatch } = clients();
    await configureAutoscaling({ autoScaling, cloudWatch }, ENDPOINT, "AllTraffic", {
      minCapacity: 2,
      maxCapacity: 3,
      targetInvocationsPerInstance: 100,
      scaleInDisabled: true,
      scaleInCooldownSeconds: 300,
      scaleOutCooldownSeconds: 60,
      scaleToZero: false,
      targetBacklogPerInstance: 5,
    });
    expect(await describeAutoscaling(autoScaling, ENDPOINT, "AllTraffic")).toMatchObject({
      minCapacity: 2,
      maxCapacity: 3,
      targetInvocationsPerInstance: 100,
      scaleInDisabled: true,
    });
    const endpoint = await describe_(ENDPOINT);
    expect(endpoint.EndpointStatus).toBe("InService");
    expect(endpoint.ProductionVariants?.[0]?.CurrentInstanceCount).toBe(2);
    expect(endpoint.ProductionVariants?.[0]?.InstancePools?.[1]).toEqual({
      InstanceType: "ml.g6.2xlarge",
      CurrentInstanceCount: 2,
    });
  });

  it("fails an endpoint whose GGUF the adapter cannot load, with the adapter's reason", async () => {
    // Another party's broken artifact and endpoint: the console may neither write models nor name it so.
    const config = localClientConfig(plane);
    const s3 = new S3Client({ ...config, forcePathStyle: true });
    const sageMaker = new SageMakerClient(config);
    const staging = path.join(dataDir, "bad");
    fs.mkdirSync(staging, { recursive: true });
    // An interrupted download: the first 300 kB of a real GGUF.
    fs.writeFileSync(
      path.join(staging, "broken.gguf"),
      fs.readFileSync(path.join(dataDir, "tiny.gguf")).subarray(0, 300_000),
    );
    const archive = path.join(dataDir, "bad.tar.gz");
    await tar.c({ gzip: true, file: archive, cwd: staging }, ["broken.gguf"]);
    await s3.send(
      new PutObjectCommand({
        Bucket: LOCAL_ARTIFACT_BUCKET,
        Key: "models/bad/model.tar.gz",
        Body: fs.readFileSync(archive),
      }),
    );
    const endpoint = await createAdapterEndpoint(sageMaker, "bad-gguf", {
      ModelDataUrl: `s3://${LOCAL_ARTIFACT_BUCKET}/models/bad/model.tar.gz`,
      Environment: { ADAPTER_THREADS: "1" },
    });
    expect(endpoint.EndpointStatus).toBe("Failed");
    expect(endpoint.FailureReason).toContain("did not pass the ping health check");
    expect(endpoint.FailureReason).toContain("Failed to load model");
  });

  it("deletes an endpoint and stops its adapter processes", async () => {
    const { sageMaker, runtime } = clients();
    const instance = await plane.endpoints.pick(ENDPOINT);
    expect((await fetch(`${instance!.url}/ping`)).status).toBe(200);
    await sageMaker.send(new DeleteEndpointCommand({ EndpointName: ENDPOINT }));
    await plane.endpoints.settled(ENDPOINT);
    await expect(sageMaker.send(new DescribeEndpointCommand({ EndpointName: ENDPOINT }))).rejects.toMatchObject({
      name: "ValidationException",
    });
    await expect(fetch(`${instance!.url}/ping`)).rejects.toThrow();
    await expect(invokeEndpoint(runtime, ENDPOINT, decision)).rejects.toMatchObject({ status: 404 });
  });
});
