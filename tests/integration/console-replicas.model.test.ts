import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { type AsyncInferenceConfig, SageMakerClient } from "@aws-sdk/client-sagemaker";
import {
  type ControlPlane,
  freePort,
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
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLeaseName } from "../../server/evaluate/runs/run-store.ts";
import { leaseHolder } from "../../server/store/leases.ts";
import type { Store } from "../../server/store/store.ts";
import { spawnNextStart } from "../support/next-start.ts";
import { openTestStore, type TestStore, testPostgresUrl } from "../support/store/test-stores.ts";

/**
 * Issue 35, part 4: two real console processes (`next start`, the console's own build) on loopback share one
 * PostgreSQL database and one local control plane. One is killed with SIGKILL in the middle of a 231-item
 * evaluation (JevBench, real-time endpoint) and of an asynchronous evaluation; the other takes each run over once
 * the dead one's lease expires, and every item is finished exactly once. A replica stopped with SIGTERM releases its
 * leases, so the other takes its run over at once.
 */
const repoRoot = path.resolve(import.meta.dirname, "../..");
const REALTIME = "dc-replicas-realtime";
const ASYNC = "dc-replicas-async";
const LEASE_SECONDS = 3;
const ASYNC_ITEMS = 30;

const build = path.join(repoRoot, ".next", "BUILD_ID");
const postgres = testPostgresUrl();
const unavailable =
  "skipped" in postgres
    ? `no PostgreSQL (${postgres.skipped})`
    : !fs.existsSync(build)
      ? "no console build (.next): npm test runs next build first"
      : null;
if (unavailable && process.env.CONSOLE_BUILD_SCAN === "required" && !("skipped" in postgres)) {
  throw new Error(`CONSOLE_BUILD_SCAN=required but ${unavailable}`);
}

let dir: string;
let plane: ControlPlane;
let shared: TestStore;
const replicas: Replica[] = [];

interface Replica {
  name: string;
  url: string;
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

async function startReplica(name: string): Promise<Replica> {
  const port = await freePort();
  const location = shared.location as { postgresUrl: string };
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    ...localAwsEnvironment(plane),
    CONSOLE_DATABASE_URL: location.postgresUrl,
    CONSOLE_DATA_DIR: path.join(dir, name),
    CONSOLE_LEASE_SECONDS: String(LEASE_SECONDS),
  };
  const child = spawnNextStart(port, env, ["ignore", "pipe", "pipe"]);
  const output: string[] = [];
  child.stdout!.on("data", (chunk) => output.push(String(chunk)));
  child.stderr!.on("data", (chunk) => output.push(String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const replica = { name, url: `http://127.0.0.1:${port}`, child, output, exited };
  replicas.push(replica);
  const deadline = Date.now() + 90_000;
  for (;;) {
    const health = await fetch(`${replica.url}/api/health`).catch(() => null);
    if (health?.ok) return replica;
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`${name} did not start: ${output.join("").slice(-2000)}`);
    }
    await sleep(200);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function api<T>(replica: Replica, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${replica.url}${route}`, {
    method,
    headers: body ? { "content-type": "application/json", origin: replica.url, "sec-fetch-site": "same-origin" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route} on ${replica.name}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** The results stored for a run: one row per item (the primary key (run, slot, position) allows no second). */
function running(): Replica[] {
  return replicas.filter((replica) => replica.child.exitCode === null && replica.child.signalCode === null);
}

async function results(store: Store, runId: string) {
  return store.selectFrom("evaluation_results").select(["position", "item_id"]).where("run_id", "=", runId).execute();
}

async function status(store: Store, runId: string) {
  return (await store.selectFrom("evaluation_runs").select("status").where("id", "=", runId).executeTakeFirst())
    ?.status;
}

/** The replica whose process holds a run's lease (holders are host/pid/random). */
async function holderOf(store: Store, runId: string): Promise<Replica | null> {
  const holder = await leaseHolder(store, runLeaseName(runId));
  return replicas.find((replica) => holder?.split("/")[1] === String(replica.child.pid)) ?? null;
}

async function waitFor<T>(what: string, check: () => Promise<T | null | false>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function deploy(
  admin: ReturnType<typeof localClientConfig>,
  name: string,
  asyncInference?: AsyncInferenceConfig,
) {
  await createEndpoint(
    new SageMakerClient(admin),
    name,
    {
      Image: localAdapterImageUri(plane),
      ModelDataSource: {
        S3DataSource: {
          S3Uri: `s3://${plane.bucket}/models/replicas/`,
          S3DataType: "S3Prefix",
          CompressionType: "None",
        },
      },
      Environment: { ADAPTER_THREADS: "1", ADAPTER_READING_CACHE: "0" },
    },
    { executionRoleArn: testExecutionRoleArn(), ...(asyncInference ? { asyncInference } : {}) },
  );
}

beforeAll(async () => {
  if (unavailable) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "console-replicas-"));
  const gguf = path.join(dir, "tiny.gguf");
  writeTinyModel(gguf);
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir: path.join(dir, "aws"), port: 0 });
  const admin = localClientConfig(plane, "admin");
  await new S3Client({ ...admin, forcePathStyle: true }).send(
    new PutObjectCommand({ Bucket: plane.bucket, Key: "models/replicas/model.gguf", Body: fs.readFileSync(gguf) }),
  );
  await deploy(admin, REALTIME);
  await deploy(admin, ASYNC, {
    OutputConfig: {
      S3OutputPath: `s3://${plane.bucket}/async/${ASYNC}/out/`,
      S3FailurePath: `s3://${plane.bucket}/async/${ASYNC}/failed/`,
    },
    ClientConfig: { MaxConcurrentInvocationsPerInstance: 2 },
  });
  await Promise.all([plane.endpoints.settled(REALTIME), plane.endpoints.settled(ASYNC)]);
  shared = await openTestStore("postgres");
  await Promise.all([startReplica("replica-a"), startReplica("replica-b")]);
}, 300_000);

afterAll(async () => {
  for (const replica of replicas) if (replica.child.exitCode === null) replica.child.kill("SIGKILL");
  await Promise.all(replicas.map((replica) => replica.exited));
  await shared?.close();
  await plane?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe.skipIf(unavailable !== null)(
  `two console replicas on one PostgreSQL${unavailable ? ` (skipped: ${unavailable})` : ""}`,
  { timeout: 600_000 },
  () => {
    it("a gateway key's limit and revocation hold across both replicas (issue 54)", async () => {
      const [a, b] = replicas as [Replica, Replica];
      const created = await api<{ key: { id: string }; secret: string }>(a, "POST", "/api/gateway/keys", {
        name: "replicas",
        endpoints: [REALTIME],
        aliases: {},
        requestsPerMinute: 4,
        tokensPerMinute: 1_000_000,
        expiresAt: null,
      });
      const decide = (replica: Replica) =>
        fetch(`${replica.url}/v1/decisions`, {
          method: "POST",
          headers: { authorization: `Bearer ${created.secret}`, "content-type": "application/json" },
          body: JSON.stringify({
            model: REALTIME,
            input: "I was charged twice.",
            questions: [{ type: "predicate", name: "refund", instructions: "Does the customer ask for money back?" }],
          }),
        });
      // Four calls a minute in all, whichever replica answers: two on each, then the fifth is refused on either.
      const statuses: number[] = [];
      for (const replica of [a, b, a, b]) statuses.push((await decide(replica)).status);
      expect(statuses).toEqual([200, 200, 200, 200]);
      const over = await decide(b);
      expect(over.status).toBe(429);
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await decide(a)).status).toBe(429);

      await api(b, "POST", `/api/gateway/keys/${created.key.id}/revoke`, {});
      const revoked = await decide(a);
      expect(revoked.status).toBe(401);
    });

    it("a replica killed in the middle of a 231-item evaluation: the other finishes it, every item once", async () => {
      const [first] = replicas as [Replica, Replica];
      const dataset = await api<{ id: string; itemCount: number }>(first, "POST", "/api/datasets", {
        sample: "jevbench",
      });
      expect(dataset.itemCount).toBe(231);
      const evaluation = await api<{ id: string }>(first, "POST", "/api/evaluations", {
        datasetId: dataset.id,
        endpoints: [REALTIME],
        concurrency: 2,
      });
      const runId = evaluation.id;
      const working = await waitFor("a replica to take the run", () => holderOf(shared.store, runId), 30_000);
      await waitFor("40 results", async () => (await results(shared.store, runId)).length >= 40, 120_000);

      working.child.kill("SIGKILL");
      expect(await working.exited).toBeNull();
      const atKill = (await results(shared.store, runId)).length;
      expect(atKill).toBeLessThan(231);
      const other = replicas.find((replica) => replica !== working)!;
      const takenOver = await waitFor(
        "the other replica to take the run over",
        async () => {
          const holder = await holderOf(shared.store, runId);
          return holder !== working && holder;
        },
        (LEASE_SECONDS + 10) * 1000,
      );
      expect(takenOver).toBe(other);

      await waitFor("the run to complete", async () => (await status(shared.store, runId)) === "completed", 300_000);
      const stored = await results(shared.store, runId);
      expect(stored).toHaveLength(231);
      expect(new Set(stored.map((row) => row.position)).size).toBe(231);
      const detail = await api<{ progress: { done: number; total: number } }>(
        other,
        "GET",
        `/api/evaluations/${runId}`,
      );
      expect(detail.progress).toMatchObject({ done: 231, total: 231 });
      console.log(
        `replicas: ${atKill} of 231 items finished when ${working.name} was killed; ${other.name} finished the rest`,
      );
    });

    it("a replica killed in the middle of an asynchronous evaluation: each item sent and finished once", async () => {
      if (running().length < 2) await startReplica("replica-c");
      const alive = running();
      const items = Array.from({ length: ASYNC_ITEMS }, (_, i) =>
        JSON.stringify({
          id: `async-${i}`,
          state: `Ticket ${i}: the customer was charged twice for one order.`,
          question: "Refund?",
          options: [
            { id: "no", description: "No" },
            { id: "yes", description: "Yes" },
          ],
          answer: i % 3 === 0 ? "no" : "yes",
        }),
      ).join("\n");
      const dataset = await api<{ id: string }>(alive[0]!, "POST", "/api/datasets", {
        name: "async items",
        text: items,
        format: "jsonl",
      });
      const evaluation = await api<{ id: string }>(alive[0]!, "POST", "/api/evaluations", {
        datasetId: dataset.id,
        endpoints: [ASYNC],
        concurrency: 2,
      });
      const runId = evaluation.id;
      const working = await waitFor("a replica to take the run", () => holderOf(shared.store, runId), 30_000);
      await waitFor("5 results", async () => (await results(shared.store, runId)).length >= 5, 120_000);

      working.child.kill("SIGKILL");
      await working.exited;
      const takenOver = await waitFor(
        "another replica to take the run over",
        async () => {
          const holder = await holderOf(shared.store, runId);
          return holder !== working && holder;
        },
        (LEASE_SECONDS + 10) * 1000,
      );
      expect(alive).toContain(takenOver);

      await waitFor("the run to complete", async () => (await status(shared.store, runId)) === "completed", 300_000);
      const stored = await results(shared.store, runId);
      expect(stored).toHaveLength(ASYNC_ITEMS);
      expect(new Set(stored.map((row) => row.position)).size).toBe(ASYNC_ITEMS);
      const sent = ["queued", "running", "completed", "failed", "expired"].reduce(
        (sum, state) => sum + plane.asyncRequests.withStatus(ASYNC, state as "queued", 10_000).length,
        0,
      );
      expect(sent).toBe(ASYNC_ITEMS);
    });

    it("a replica stopped with SIGTERM drains, releases its leases and exits; the other takes its run at once", async () => {
      if (running().length < 2) await startReplica("replica-d");
      const alive = running();
      expect(alive).toHaveLength(2);
      const { datasets } = await api<{ datasets: { id: string; name: string }[] }>(alive[0]!, "GET", "/api/datasets");
      const jevbench = datasets.find((dataset) => dataset.name === "jevbench")!;
      const evaluation = await api<{ id: string }>(alive[0]!, "POST", "/api/evaluations", {
        datasetId: jevbench.id,
        endpoints: [REALTIME],
        concurrency: 1,
      });
      const runId = evaluation.id;
      const working = await waitFor("a replica to take the run", () => holderOf(shared.store, runId), 30_000);
      await waitFor("10 results", async () => (await results(shared.store, runId)).length >= 10, 120_000);
      const holder = await leaseHolder(shared.store, runLeaseName(runId));

      const stoppedAt = Date.now();
      working.child.kill("SIGTERM");
      expect(await working.exited).toBe(0);
      expect(Date.now() - stoppedAt).toBeLessThan(20_000);
      const leftBehind = await shared.store.selectFrom("leases").select("name").where("holder", "=", holder!).execute();
      expect(leftBehind).toEqual([]);
      expect(working.output.join("")).toMatch(/"msg":"background work stopped"/);
      expect(working.output.join("")).toMatch(/"msg":"stopped","signal":"SIGTERM","unfinishedRequests":0/);
      expect(await status(shared.store, runId)).toBe("running");

      const other = alive.find((replica) => replica !== working)!;
      await waitFor(
        "the other replica to take the run",
        async () => (await holderOf(shared.store, runId)) === other,
        (LEASE_SECONDS / 2 + 5) * 1000,
      );
      await waitFor("the run to complete", async () => (await status(shared.store, runId)) === "completed", 300_000);
      expect(await results(shared.store, runId)).toHaveLength(231);
    });
  },
);
