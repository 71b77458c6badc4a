import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
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
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workerOutcome } from "../../../tests/support/evaluate/worker-outcome.ts";
import { openTestStore, type TestStore } from "../../../tests/support/store/test-stores.ts";
import { createDataset } from "../datasets/dataset-store.ts";
import type { LabelledDecision } from "../datasets/labelled-decision.ts";
import { createRun, findRun, runResults } from "./run-store.ts";

const LOCAL_ARTIFACT_BUCKET = testStackFixture().bucket;

/**
 * An evaluation run on an asynchronous endpoint of the local control plane, worked by a separate process that is
 * killed while requests are in flight and started again: the requests it had sent are collected from S3, so
 * InvokeEndpointAsync is called once per item and every item is finished once.
 */
const repoRoot = path.resolve(import.meta.dirname, "../../..");
const ASYNC = "dc-eval-async";
const ITEMS = 24;

let dir: string;
let plane: ControlPlane;
let testStore: TestStore;
const children: ChildProcess[] = [];

function labelled(count: number): LabelledDecision[] {
  return Array.from({ length: count }, (_, i) => ({
    decision: {
      id: `item-${i}`,
      state: `Ticket ${i}: the customer wants a refund for a duplicate charge.`,
      question: "Refund?",
      options: [
        { id: "no", description: "No" },
        { id: "yes", description: "Yes" },
      ],
    },
    answer: i % 3 === 0 ? "no" : "yes",
    category: null,
    tier: null,
  }));
}

/** Every InvokeEndpointAsync the local control plane took for the endpoint, whatever became of it. */
function invocationsOnPlane(): number {
  const statuses = ["queued", "running", "completed", "failed", "expired"] as const;
  return statuses.reduce((sum, status) => sum + plane.asyncRequests.withStatus(ASYNC, status, 10_000).length, 0);
}

function worker(file: string, runId: string) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "tests/support/evaluate/run-worker.ts", file, runId, "aws"],
    {
      cwd: repoRoot,
      env: { ...process.env, ...localAwsEnvironment(plane), RUN_WORKER_LEASE_MS: "1500" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  children.push(child);
  return child;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "async-resume-"));
  const gguf = path.join(dir, "tiny.gguf");
  writeTinyModel(gguf);
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir: path.join(dir, "aws"), port: 0 });
  const admin = localClientConfig(plane, "admin");
  await new S3Client({ ...admin, forcePathStyle: true }).send(
    new PutObjectCommand({
      Bucket: LOCAL_ARTIFACT_BUCKET,
      Key: "models/eval-async/model.gguf",
      Body: fs.readFileSync(gguf),
    }),
  );
  const image = localAdapterImageUri(plane);
  await createEndpoint(
    new SageMakerClient(admin),
    ASYNC,
    {
      Image: image,
      ModelDataSource: {
        S3DataSource: {
          S3Uri: `s3://${LOCAL_ARTIFACT_BUCKET}/models/eval-async/`,
          S3DataType: "S3Prefix",
          CompressionType: "None",
        },
      },
      Environment: { ADAPTER_THREADS: "1", ADAPTER_PARALLEL: "1", ADAPTER_READING_CACHE: "0" },
    },
    {
      executionRoleArn: testExecutionRoleArn(),
      asyncInference: {
        OutputConfig: {
          S3OutputPath: `s3://${LOCAL_ARTIFACT_BUCKET}/async/${ASYNC}/out/`,
          S3FailurePath: `s3://${LOCAL_ARTIFACT_BUCKET}/async/${ASYNC}/failed/`,
        },
        ClientConfig: { MaxConcurrentInvocationsPerInstance: 1 },
      },
    },
  );
  await plane.endpoints.settled(ASYNC);
  // The console's own SQLite file: the workers are separate processes that open it too.
  testStore = await openTestStore("sqlite");
});

afterAll(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  await testStore?.close();
  await plane?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("an evaluation run on an asynchronous endpoint", { timeout: 180_000 }, () => {
  it("collects the requests it sent before being killed from S3 and sends each item once", async () => {
    const { store, location } = testStore;
    const dataset = await createDataset(store, {
      name: "set",
      source: "upload",
      format: "jsonl",
      items: labelled(ITEMS),
    });
    const run = await createRun(store, {
      datasetId: dataset.id,
      endpoints: [ASYNC],
      concurrency: 3,
      targetAccuracy: 0.8,
    });
    const file = "sqliteFile" in location ? location.sqliteFile : location.postgresUrl;
    const inFlight = async () =>
      (
        await store
          .selectFrom("async_requests as r")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("r.run_id", "=", run.id)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom("evaluation_results as e")
                  .select(sql`1`.as("one"))
                  .whereRef("e.run_id", "=", "r.run_id")
                  .whereRef("e.slot", "=", "r.slot")
                  .whereRef("e.position", "=", "r.position"),
              ),
            ),
          )
          .executeTakeFirstOrThrow()
      ).n;

    const first = worker(file, run.id);
    const exited = new Promise((resolve) => first.on("exit", resolve));
    const deadline = Date.now() + 120_000;
    while (((await runResults(store, run.id)).length < 6 || (await inFlight()) === 0) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    first.kill("SIGKILL");
    await exited;
    const sentBeforeKill = await inFlight();
    expect(sentBeforeKill).toBeGreaterThan(0);
    const finishedBeforeKill = (await runResults(store, run.id)).length;
    expect(finishedBeforeKill).toBeLessThan(ITEMS);
    expect((await findRun(store, run.id))?.status).toBe("running");

    expect(await workerOutcome(worker(file, run.id))).toEqual({ runId: run.id, status: "completed" });

    const results = await runResults(store, run.id);
    expect(results).toHaveLength(ITEMS);
    expect(new Set(results.map((result) => result.position)).size).toBe(ITEMS);
    expect(results.filter((result) => result.errorKind !== null)).toEqual([]);
    expect(invocationsOnPlane()).toBe(ITEMS);
    const recorded = await store
      .selectFrom("async_requests")
      .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.count<number>("position").distinct().as("items")])
      .where("run_id", "=", run.id)
      .executeTakeFirstOrThrow();
    expect(recorded).toEqual({ n: ITEMS, items: ITEMS });
    expect((await findRun(store, run.id))?.status).toBe("completed");
  });
});
