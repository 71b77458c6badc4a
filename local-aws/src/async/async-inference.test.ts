import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MetricSource } from "../alarms/metric-source.ts";
import { ASYNC_ENDPOINT_METRICS } from "../alarms/sagemaker-endpoint-metrics.ts";
import { DataCapture } from "../capture/data-capture.ts";
import { type Db, openLocalDatabase } from "../database.ts";
import type { EndpointRunner, InstanceAddress } from "../endpoints/endpoint-runner.ts";
import { localIam } from "../iam/local-iam.ts";
import { LogStore } from "../log-store.ts";
import { MetricDatapoints } from "../metric-datapoints.ts";
import { MetricsStore } from "../metrics-store.ts";
import { ObjectStore } from "../object-store.ts";
import { SageMakerStore } from "../sagemaker-store.ts";
import { testExecutionRoleArn, testStackFixture } from "../test-support/stack-fixture.ts";
import { LOCAL_ACCOUNT_ID } from "../wire/request.ts";
import { AsyncInference } from "./async-inference.ts";
import { AsyncRequestStore } from "./async-request-store.ts";
import { BacklogMetrics } from "./backlog-metrics.ts";

const LOCAL_ARTIFACT_BUCKET = testStackFixture().bucket;

/**
 * The local queue against a stand-in container on loopback (its answers and delays set per test) and stand-in
 * instances, so concurrency, timeouts, failures and restarts can be watched exactly; the adapter itself is covered
 * by tests/integration/async-endpoints.model.test.ts.
 */
const ENDPOINT = "dc-queue";
const BUCKET = LOCAL_ARTIFACT_BUCKET;

type Handler = (body: string, response: http.ServerResponse) => void | Promise<void>;

let dataDir: string;
let db: Db;
let sageMaker: SageMakerStore;
let objects: ObjectStore;
let requests: AsyncRequestStore;
let logs: LogStore;
let metrics: MetricDatapoints;
let container: http.Server;
let handler: Handler;
let inFlight = 0;
let peak = 0;
let instances: InstanceAddress[];
let queue: AsyncInference;

function openQueue() {
  // Every listed instance is in the serving fleet: a hold always succeeds, and counts until it is released.
  const held = new Map<string, number>();
  const heldOn = (_endpoint: string, instanceId: string) => held.get(instanceId) ?? 0;
  const hold = (endpoint: string, instanceId: string) => {
    held.set(instanceId, heldOn(endpoint, instanceId) + 1);
    return () => held.set(instanceId, heldOn(endpoint, instanceId) - 1);
  };
  const runner = { healthyInstances: () => instances, hold, inFlight: heldOn } as unknown as EndpointRunner;
  const iam = localIam(sageMaker, db, testStackFixture());
  queue = new AsyncInference({
    sageMaker,
    runner,
    objects,
    requests,
    iam,
    logs,
    metrics,
    capture: new DataCapture({ sageMaker, objects, iam, logs, region: "us-east-1" }),
    region: "us-east-1",
  });
  queue.start();
  return queue;
}

function addEndpoint(maxConcurrent: number | undefined, status: "InService" | "Creating" = "InService") {
  sageMaker.insertModel({
    ModelName: ENDPOINT,
    ModelArn: `arn:aws:sagemaker:us-east-1:${LOCAL_ACCOUNT_ID}:model/${ENDPOINT}`,
    ExecutionRoleArn: testExecutionRoleArn(),
    CreationTime: 0,
  });
  sageMaker.insertEndpointConfig({
    EndpointConfigName: ENDPOINT,
    EndpointConfigArn: `arn:aws:sagemaker:us-east-1:${LOCAL_ACCOUNT_ID}:endpoint-config/${ENDPOINT}`,
    ProductionVariants: [{ VariantName: "AllTraffic", ModelName: ENDPOINT, InstanceType: "ml.c6i.large" }],
    AsyncInferenceConfig: {
      OutputConfig: {
        S3OutputPath: `s3://${BUCKET}/async/${ENDPOINT}/out/`,
        S3FailurePath: `s3://${BUCKET}/async/${ENDPOINT}/failed/`,
      },
      ...(maxConcurrent ? { ClientConfig: { MaxConcurrentInvocationsPerInstance: maxConcurrent } } : {}),
    },
    CreationTime: 0,
  });
  sageMaker.insertEndpoint({
    name: ENDPOINT,
    configName: ENDPOINT,
    status,
    failureReason: null,
    deployment: {},
    variants: [
      {
        VariantName: "AllTraffic",
        ModelName: ENDPOINT,
        CurrentWeight: 1,
        DesiredWeight: 1,
        CurrentInstanceCount: 1,
        DesiredInstanceCount: 1,
        DeployedImages: [],
      },
    ],
    createdAt: 0,
    updatedAt: 0,
  });
}

async function putInput(key: string, body: unknown) {
  await objects.putObject(BUCKET, key, Buffer.from(JSON.stringify(body)), { contentType: "application/json" });
  return `s3://${BUCKET}/${key}`;
}

function submit(inputLocation: string, extra: { InvocationTimeoutSeconds?: number; RequestTTLSeconds?: number } = {}) {
  return queue.submit(
    { EndpointName: ENDPOINT, ContentType: "application/json", InputLocation: inputLocation, ...extra },
    null,
  );
}

async function settled(ids: string[], timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = ids.map((id) => rowOf(id));
    if (rows.every((row) => row && !["queued", "running"].includes(row.status))) return rows;
    if (Date.now() > deadline) throw new Error(`not settled: ${JSON.stringify(rows.map((r) => r?.status))}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function rowOf(inferenceId: string) {
  return db.prepare("SELECT * FROM async_requests WHERE inference_id = ?").get(inferenceId) as
    | { status: string; started_at: number; finished_at: number; failure_reason: string | null }
    | undefined;
}

function objectText(uri: string | null): string | undefined {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(uri ?? "");
  const object = match ? objects.find(match[1] as string, match[2] as string) : undefined;
  return object ? fs.readFileSync(object.file, "utf8") : undefined;
}

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "async-queue-"));
  db = openLocalDatabase(dataDir);
  sageMaker = new SageMakerStore(db);
  objects = new ObjectStore(db, dataDir);
  objects.createBucket(BUCKET);
  requests = new AsyncRequestStore(db);
  logs = new LogStore(db);
  metrics = new MetricDatapoints(db);
  inFlight = 0;
  peak = 0;
  handler = (body, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ echoed: JSON.parse(body) }));
  };
  container = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", async () => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      try {
        await handler(body, response);
      } finally {
        inFlight -= 1;
      }
    });
  });
  await new Promise<void>((resolve) => container.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(container.address() as AddressInfo).port}`;
  instances = [{ variant: "AllTraffic", instanceId: "i-one", url, logStream: "AllTraffic/i-one", pid: undefined }];
});

afterEach(async () => {
  await queue?.close();
  container.closeAllConnections();
  await new Promise((resolve) => container.close(resolve));
  db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const slow =
  (ms: number): Handler =>
  async (body, response) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    response.writeHead(200, { "content-type": "application/json" });
    response.end(body);
  };

describe("the local Asynchronous Inference queue", () => {
  it("writes the container's answer to S3OutputPath/<inference-id>.out as the execution role", async () => {
    addEndpoint(2);
    openQueue();
    const input = await putInput(`async/${ENDPOINT}/in/a.json`, { decision: 1 });
    const queued = submit(input);
    expect(queued.outputLocation).toBe(`s3://${BUCKET}/async/${ENDPOINT}/out/${queued.inferenceId}.out`);
    expect(queued.failureLocation).toBe(`s3://${BUCKET}/async/${ENDPOINT}/failed/${queued.inferenceId}-error.out`);
    const [row] = await settled([queued.inferenceId]);
    expect(row?.status).toBe("completed");
    expect(JSON.parse(objectText(queued.outputLocation) ?? "null")).toEqual({ echoed: { decision: 1 } });
    expect(objectText(queued.failureLocation)).toBeUndefined();
  });

  it("runs at most MaxConcurrentInvocationsPerInstance requests at once on each instance", async () => {
    addEndpoint(2);
    handler = slow(150);
    openQueue();
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(submit(await putInput(`async/${ENDPOINT}/in/${i}.json`, { i })).inferenceId);
    const rows = await settled(ids);
    expect(rows.every((row) => row?.status === "completed")).toBe(true);
    expect(peak).toBe(2);
  });

  it("spreads the queue over every healthy instance", async () => {
    addEndpoint(1);
    handler = slow(150);
    instances.push({ ...instances[0]!, instanceId: "i-two", logStream: "AllTraffic/i-two" });
    openQueue();
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(submit(await putInput(`async/${ENDPOINT}/in/${i}.json`, { i })).inferenceId);
    await settled(ids);
    expect(peak).toBe(2);
    const byInstance = db
      .prepare("SELECT instance_id, COUNT(*) AS n FROM async_requests GROUP BY instance_id ORDER BY instance_id")
      .all();
    expect(byInstance).toEqual([
      { instance_id: "i-one", n: 2 },
      { instance_id: "i-two", n: 2 },
    ]);
  });

  it("writes a container's non-2xx answer to the failure location and goes on with the next request", async () => {
    addEndpoint(1);
    handler = (body, response) => {
      const bad = JSON.parse(body).bad === true;
      response.writeHead(bad ? 400 : 200, { "content-type": "application/json" });
      response.end(bad ? JSON.stringify({ error: "options must contain 2-16 entries" }) : body);
    };
    openQueue();
    const failing = submit(await putInput(`async/${ENDPOINT}/in/bad.json`, { bad: true }));
    const fine = submit(await putInput(`async/${ENDPOINT}/in/good.json`, { bad: false }));
    const [failed, completed] = await settled([failing.inferenceId, fine.inferenceId]);
    expect(failed?.status).toBe("failed");
    expect(failed?.failure_reason).toContain("Received client error (400)");
    expect(JSON.parse(objectText(failing.failureLocation) ?? "null")).toEqual({
      error: "options must contain 2-16 entries",
    });
    expect(completed?.status).toBe("completed");
    // Failed requests are not retried: the container saw each request once.
    const started = logs.read(`/aws/sagemaker/Endpoints/${ENDPOINT}`, "AllTraffic/i-one/data-log", {
      limit: 100,
      fromHead: true,
      contains: "started",
    });
    expect(started).toHaveLength(2);
  });

  it("publishes only metrics AWS lists for asynchronous endpoints: a failure counts in InvocationFailures", async () => {
    addEndpoint(1);
    handler = (body, response) => {
      const bad = JSON.parse(body).bad === true;
      response.writeHead(bad ? 500 : 200, { "content-type": "application/json" });
      response.end(body);
    };
    openQueue();
    const failing = submit(await putInput(`async/${ENDPOINT}/in/bad.json`, { bad: true }));
    const fine = submit(await putInput(`async/${ENDPOINT}/in/good.json`, { bad: false }));
    await settled([failing.inferenceId, fine.inferenceId]);
    await new BacklogMetrics(sageMaker, { healthyInstances: () => instances } as never, requests, metrics).publish();
    const published = (
      db
        .prepare("SELECT DISTINCT metric_name AS name FROM metric_datapoints WHERE namespace = 'AWS/SageMaker'")
        .all() as {
        name: string;
      }[]
    ).map((row) => row.name);
    expect(published.filter((name) => !(ASYNC_ENDPOINT_METRICS as readonly string[]).includes(name))).toEqual([]);
    const source = new MetricSource(new MetricsStore(db), metrics);
    const sum = (metricName: string) =>
      [
        ...source
          .periodValues(
            {
              namespace: "AWS/SageMaker",
              metricName,
              dimensions: { EndpointName: ENDPOINT, VariantName: "AllTraffic" },
              statistic: "Sum",
              periodMs: 3_600_000,
              alignMs: 0,
            },
            Date.now() - 3_600_000,
            Date.now() + 1000,
          )
          .values(),
      ]
        .flat()
        .reduce((a, b) => a + b, 0);
    expect(sum("InvocationFailures")).toBe(1);
    expect(sum("Invocation5XXErrors")).toBe(1);
    expect(sum("InvocationsProcesssed")).toBe(1);
    expect(published).not.toContain("InvocationModelErrors");
    expect(sum("InvocationModelErrors")).toBe(0);
  });

  it("ends a request the model does not answer within InvocationTimeoutSeconds as failed", async () => {
    addEndpoint(1);
    handler = slow(3000);
    openQueue();
    const queued = submit(await putInput(`async/${ENDPOINT}/in/slow.json`, {}), { InvocationTimeoutSeconds: 1 });
    const [row] = await settled([queued.inferenceId]);
    expect(row?.status).toBe("failed");
    expect(objectText(queued.failureLocation)).toBe("The model did not answer within InvocationTimeoutSeconds (1 s).");
  });

  it("reads the input as the execution role: an object outside async/*/in/ is refused", async () => {
    addEndpoint(1);
    openQueue();
    const queued = submit(await putInput("build-sources/secret.json", { secret: true }));
    const [row] = await settled([queued.inferenceId]);
    expect(row?.status).toBe("failed");
    expect(objectText(queued.failureLocation)).toMatch(
      /^Could not download the request payload: User: arn:aws:sts::000000000000:assumed-role\/DecisionConsole-SageMakerExecutionRole\w*\/SageMaker is not authorized to perform: s3:GetObject on resource: "arn:aws:s3:::[^/]+\/build-sources\/secret.json"/,
    );
  });

  it("fails a request whose input object does not exist, without touching the container", async () => {
    addEndpoint(1);
    openQueue();
    const queued = submit(`s3://${BUCKET}/async/${ENDPOINT}/in/missing.json`);
    const [row] = await settled([queued.inferenceId]);
    expect(row?.status).toBe("failed");
    expect(objectText(queued.failureLocation)).toContain("The specified key does not exist.");
    expect(peak).toBe(0);
  });

  it("keeps requests queued while the endpoint has no healthy instance and runs them once one is", async () => {
    addEndpoint(1);
    const ready = instances;
    instances = [];
    openQueue();
    const queued = submit(await putInput(`async/${ENDPOINT}/in/wait.json`, { wait: 1 }));
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(rowOf(queued.inferenceId)?.status).toBe("queued");
    const backlog = new BacklogMetrics(sageMaker, { healthyInstances: () => instances } as never, requests, metrics);
    backlog.publish(Date.now());
    const now = Date.now() + 1;
    const read = (name: string) =>
      metrics.read("AWS/SageMaker", name, { EndpointName: ENDPOINT }, now - 60_000, now).map((p) => p.value);
    expect(read("ApproximateBacklogSize")).toEqual([1]);
    expect(read("HasBacklogWithoutCapacity")).toEqual([1]);
    expect(read("ApproximateAgeOfOldestRequest")[0]).toBeGreaterThan(1);
    instances = ready;
    const [row] = await settled([queued.inferenceId]);
    expect(row?.status).toBe("completed");
  });

  it("expires a request that waited longer than its RequestTTLSeconds", async () => {
    addEndpoint(1);
    instances = [];
    openQueue();
    const queued = submit(await putInput(`async/${ENDPOINT}/in/old.json`, {}), { RequestTTLSeconds: 60 });
    db.prepare("UPDATE async_requests SET received_at = received_at - 61000").run();
    instances = [
      { variant: "AllTraffic", instanceId: "i-one", url: "http://127.0.0.1:9", logStream: "x", pid: undefined },
    ];
    const [row] = await settled([queued.inferenceId]);
    expect(row?.status).toBe("expired");
    expect(objectText(queued.failureLocation)).toContain("RequestTTLSeconds (60 s)");
  });

  it("loses no queued request across a restart and runs each one once", async () => {
    addEndpoint(1);
    handler = slow(400);
    openQueue();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(submit(await putInput(`async/${ENDPOINT}/in/${i}.json`, { i })).inferenceId);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await queue.close();
    const afterClose = ids.map((id) => rowOf(id)?.status);
    expect(afterClose[0]).toBe("completed");
    expect(afterClose.slice(1)).toEqual(["queued", "queued"]);
    openQueue();
    const rows = await settled(ids);
    expect(rows.map((row) => row?.status)).toEqual(["completed", "completed", "completed"]);
    for (const id of ids) {
      const runs = logs.read(`/aws/sagemaker/Endpoints/${ENDPOINT}`, "AllTraffic/i-one/data-log", {
        limit: 10,
        fromHead: true,
        contains: `started. InferenceId: ${id}`,
      });
      expect(runs).toHaveLength(1);
    }
  });

  it("ends a request that a killed control plane left running as failed, not run twice", async () => {
    addEndpoint(1);
    openQueue();
    await queue.close();
    const input = await putInput(`async/${ENDPOINT}/in/crash.json`, {});
    const queued = submit(input);
    requests.claim(db.prepare("SELECT id FROM async_requests").pluck().get() as number, "AllTraffic", "i-one");
    openQueue();
    const [row] = await settled([queued.inferenceId]);
    expect(row?.status).toBe("failed");
    expect(objectText(queued.failureLocation)).toContain("it is not run a second time");
    expect(peak).toBe(0);
  });
});
