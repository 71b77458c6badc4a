import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  DescribeTransformJobCommand,
  ListTransformJobsCommand,
  SageMakerClient,
  StopTransformJobCommand,
} from "@aws-sdk/client-sagemaker";
import {
  type ControlPlane,
  localAwsEnvironment,
  localClientConfig,
  startControlPlane,
} from "@decision-console/local-aws";
import { createTinyAdapterModel, testStackFixture } from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStore, type TestStore } from "../../../tests/support/store/test-stores.ts";
import { createAwsClients } from "../../aws/clients.ts";
import { consoleConfig } from "../../config.ts";
import { consoleSettings } from "../../console-settings.ts";
import type { Store } from "../../store/store.ts";
import { createDataset } from "../datasets/dataset-store.ts";
import type { LabelledDecision } from "../datasets/labelled-decision.ts";
import { batchJobOf, saveBatchJob } from "./batch-job-store.ts";
import { type BatchRunDeps, launchBatchJob, planBatchJob } from "./batch-run.ts";
import { cancelEvaluation, startEvaluation } from "./evaluation-commands.ts";
import { httpInvoker } from "./invoker.ts";
import { startRun } from "./run-registry.ts";
import { createRun, findRun, runResults } from "./run-store.ts";
import { evaluationDetail } from "./run-view.ts";
import { executeRun, type RunnerDeps } from "./runner.ts";

/**
 * Evaluations scored by a Batch Transform job of a model, against the real local control plane and real adapter
 * processes: the dataset goes to S3, one two-instance job scores it with refusals recorded inline, the output is
 * recorded per item, and a run resumes after the console stopped (the job is found again, or created once).
 */
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "batch-evaluations-"));
const saved = { ...process.env };
const MODEL = "dc-batch-eval";
let plane: ControlPlane;
let testStore: TestStore;
let store: Store;
let deps: RunnerDeps & { checkEndpoint: never; batch: BatchRunDeps };

const longState = Array.from({ length: 3000 }, (_, index) => `word${index}`).join(" ");
const items: LabelledDecision[] = Array.from({ length: 130 }, (_, index) => ({
  decision: {
    id: `item-${index}`,
    state: index === 7 ? longState : `Ticket ${index}: the customer asks about invoice ${index}.`,
    question: "Which team should handle this ticket?",
    options: [
      { id: "billing", description: "Billing" },
      { id: "tech", description: "Technical support" },
    ],
  },
  answer: index % 3 === 0 ? "tech" : "billing",
  category: null,
  tier: null,
}));

const target = {
  modelName: MODEL,
  instanceType: "ml.c6i.large" as const,
  instanceCount: 2,
  maxConcurrentTransforms: 1,
};

async function ended(runId: string, timeoutMs = 150_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await findRun(store, runId);
    if (run?.status !== "running" || Date.now() > deadline) return run;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir: path.join(scratch, "aws"), port: 0 });
  Object.assign(process.env, localAwsEnvironment(plane));
  await createTinyAdapterModel(plane, MODEL, scratch);
  testStore = await openTestStore("sqlite");
  store = testStore.store;
  deps = {
    store,
    invoke: httpInvoker(() => "http://127.0.0.1:9"),
    checkEndpoint: undefined as never,
    batch: { aws: createAwsClients(), settings: consoleSettings(consoleConfig()), pollMs: 200 },
  };
}, 120_000);

afterAll(async () => {
  await plane?.close();
  await testStore?.close();
  process.env = saved;
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("evaluations with batch transform in local mode", { timeout: 200_000 }, () => {
  let datasetId: string;

  it("scores a dataset with one two-instance job and records each item, a refusal as an error of its kind", async () => {
    datasetId = (await createDataset(store, { name: "tickets", source: "upload", format: "jsonl", items })).id;
    const summary = await startEvaluation(deps, { datasetId, batch: target });
    expect(summary.batch).toEqual({
      jobName: expect.stringMatching(/^dc-eval-[0-9a-f]{16}$/),
      modelName: MODEL,
      instanceType: "ml.c6i.large",
      instanceCount: 2,
      maxConcurrentTransforms: 1,
    });
    expect(summary.endpoints).toEqual([MODEL]);
    const run = await ended(summary.id);
    expect(run?.status, run?.failure ?? "").toBe("completed");

    const results = await runResults(store, summary.id);
    expect(results).toHaveLength(items.length);
    const refused = results.find((result) => result.itemId === "item-7");
    expect(refused).toMatchObject({ errorKind: "rejected", probabilities: null });
    expect(refused?.errorMessage).toMatch(
      /^decisions exceeds the request token budget: the decision has \d+ prompt tokens/,
    );
    for (const result of results.filter((each) => each.itemId !== "item-7")) {
      expect(result.errorKind).toBeNull();
      expect(result.probabilities?.reduce((sum, p) => sum + p, 0)).toBeCloseTo(1, 9);
      // Latency is the adapter's own time for the record (timing.total_seconds).
      expect(result.latencyMs).toBe(result.adapterMs);
      expect(result.latencyMs).toBeGreaterThan(0);
    }
    const detail = await evaluationDetail(store, summary.id);
    const metrics = detail?.results[0]?.metrics;
    expect(metrics?.accuracy.total).toBe(items.length);
    expect(metrics?.errors).toEqual({ rejected: 1 });
    expect(metrics?.errorDetails[0]?.messages[0]).toMatchObject({ count: 1, itemIds: ["item-7"] });
    // The job's input under batch/inputs/, its output under batch/outputs/, where the execution role may use them.
    expect(await batchJobOf(store, summary.id)).toMatchObject({
      input_s3_uri: `s3://decision-console-local/batch/inputs/evaluations/${summary.id}/`,
      output_s3_uri: `s3://decision-console-local/batch/outputs/evaluations/${summary.id}/`,
    });
  });

  it("creates the job of a run whose console stopped before creating it, once, and collects it", async () => {
    const run = await createRun(store, { datasetId, endpoints: [MODEL], concurrency: 1, targetAccuracy: 0.9 });
    const job = planBatchJob(deps.batch.settings, run.id, { ...target, instanceCount: 1 });
    await saveBatchJob(store, job);
    await startRun(deps, run.id);
    const worked = await findRun(store, run.id);
    expect(worked?.status, worked?.failure ?? "").toBe("completed");
    expect(await runResults(store, run.id)).toHaveLength(items.length);
    const listed = await new SageMakerClient(localClientConfig(plane, "admin")).send(new ListTransformJobsCommand({}));
    expect(listed.TransformJobSummaries?.filter((each) => each.TransformJobName === job.job_name)).toHaveLength(1);
  });

  it("re-attaches to a job that kept running while the console was down", async () => {
    const run = await createRun(store, { datasetId, endpoints: [MODEL], concurrency: 1, targetAccuracy: 0.9 });
    const job = planBatchJob(deps.batch.settings, run.id, { ...target, instanceCount: 1 });
    await launchBatchJob(deps.batch, store, run, job);
    // The console stops while the job runs: its worker returns and leaves the run running.
    const shutdown = new AbortController();
    const working = executeRun(deps, run.id, shutdown.signal);
    await new Promise((resolve) => setTimeout(resolve, 300));
    shutdown.abort(new Error("console stopping"));
    expect(await working).toBe("running");
    const sageMaker = new SageMakerClient(localClientConfig(plane, "admin"));
    const during = await sageMaker.send(new DescribeTransformJobCommand({ TransformJobName: job.job_name }));
    expect(during.TransformJobStatus).toBe("InProgress");
    // The next start claims it again and collects the same job.
    expect(await executeRun(deps, run.id)).toBe("completed");
    expect(await runResults(store, run.id)).toHaveLength(items.length);
    const listed = await sageMaker.send(new ListTransformJobsCommand({}));
    expect(listed.TransformJobSummaries?.filter((each) => each.TransformJobName === job.job_name)).toHaveLength(1);
  });

  it("fails the run with the job's reason when the job is stopped", async () => {
    const summary = await startEvaluation(deps, { datasetId, batch: { ...target, instanceCount: 1 } });
    const jobName = summary.batch?.jobName ?? "";
    await new SageMakerClient(localClientConfig(plane, "admin")).send(
      new StopTransformJobCommand({ TransformJobName: jobName }),
    );
    const run = await ended(summary.id);
    expect(run?.status).toBe("failed");
    expect(run?.failure).toBe(`The transform job ${jobName} was stopped.`);
  });

  it("stops the job when the run is cancelled", async () => {
    const summary = await startEvaluation(deps, { datasetId, batch: { ...target, instanceCount: 1 } });
    await cancelEvaluation(deps, summary.id);
    const sageMaker = new SageMakerClient(localClientConfig(plane, "admin"));
    const deadline = Date.now() + 30_000;
    let status: string | undefined;
    do {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const job = await sageMaker.send(new DescribeTransformJobCommand({ TransformJobName: summary.batch?.jobName }));
      status = job.TransformJobStatus;
    } while (status === "InProgress" && Date.now() < deadline);
    expect(["Stopping", "Stopped"]).toContain(status);
    expect((await findRun(store, summary.id))?.status).toBe("cancelled");
  });

  it("refuses a model the console did not deploy (4xx) and keeps no run", async () => {
    const before = await evaluationSummaryCount();
    await expect(
      startEvaluation(deps, { datasetId, batch: { ...target, modelName: "dc-no-such-model" } }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      startEvaluation(deps, { datasetId, batch: { ...target, modelName: "other-model" } }),
    ).rejects.toMatchObject({ status: 400 });
    expect(await evaluationSummaryCount()).toBe(before);
  });
});

async function evaluationSummaryCount(): Promise<number> {
  const { n } = await store
    .selectFrom("evaluation_runs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return n;
}
