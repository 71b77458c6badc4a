import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import {
  type FakeEndpoint,
  startFakeDecisionEndpoint,
} from "../../../tests/support/evaluate/fake-decision-endpoint.ts";
import { workerOutcome } from "../../../tests/support/evaluate/worker-outcome.ts";
import { describeOnStores } from "../../../tests/support/store/test-stores.ts";
import { defaultBusyRetryPolicy } from "../../invoke/busy-retry.ts";
import { acquireLease, leaseHolder } from "../../store/leases.ts";
import { deleteDataset } from "../datasets/dataset-commands.ts";
import { createDataset } from "../datasets/dataset-store.ts";
import type { LabelledDecision } from "../datasets/labelled-decision.ts";
import { retryFailedItems, startEvaluation } from "./evaluation-commands.ts";
import { httpInvoker } from "./invoker.ts";
import { cancelRun, startRun } from "./run-registry.ts";
import { createRun, findRun, runLeaseName, runResults } from "./run-store.ts";
import { evaluationDetail } from "./run-view.ts";
import { executeRun } from "./runner.ts";

const repoRoot = path.resolve(import.meta.dirname, "../../..");
const fastRetry = { ...defaultBusyRetryPolicy, maxRetries: 4, baseDelayMs: 1, maxDelayMs: 5 };

function labelled(count: number): LabelledDecision[] {
  return Array.from({ length: count }, (_, i) => ({
    decision: {
      id: `item-${i}`,
      state: `Ticket ${i}: the customer wants a refund.`,
      question: "Refund?",
      options: [
        { id: "no", description: "No" },
        { id: "yes", description: "Yes" },
      ],
    },
    answer: i % 3 === 0 ? "no" : "yes",
    category: i % 2 === 0 ? "even" : "odd",
    tier: null,
  }));
}

describeOnStores("evaluation runs", (current) => {
  const endpoints: FakeEndpoint[] = [];
  const children: ChildProcess[] = [];

  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
    await Promise.all(endpoints.splice(0).map((endpoint) => endpoint.close()));
  });

  async function endpoint(options: Parameters<typeof startFakeDecisionEndpoint>[0] = {}) {
    const started = await startFakeDecisionEndpoint(options);
    endpoints.push(started);
    return started;
  }

  async function newRun(count: number, names: string[], concurrency = 2) {
    const { store } = current();
    const items = labelled(count);
    const dataset = await createDataset(store, { name: "set", source: "upload", format: "jsonl", items });
    return createRun(store, { datasetId: dataset.id, endpoints: names, concurrency, targetAccuracy: 0.8 });
  }

  const pause = () => new Promise((resolve) => setTimeout(resolve, 10));

  it("scores every item once, stores probabilities, latency and adapter time, and completes", async () => {
    const { store } = current();
    const fake = await endpoint({ delayMs: 2 });
    const run = await newRun(12, ["cpu"]);
    const status = await executeRun({ store, invoke: httpInvoker(() => fake.url), retry: fastRetry }, run.id);
    expect(status).toBe("completed");
    const results = await runResults(store, run.id);
    expect(results.map((result) => result.itemId).sort()).toEqual([...fake.scored].sort());
    expect(results).toHaveLength(12);
    const first = results[0];
    expect(first?.probabilities?.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    expect(first?.adapterMs).toBeCloseTo(2, 6);
    expect(first?.latencyMs).toBeGreaterThan(0);
    const detail = await evaluationDetail(store, run.id);
    expect(detail?.progress).toMatchObject({ done: 12, total: 12, etaSeconds: null });
    expect(detail?.results[0]?.metrics.accuracy.total).toBe(12);
    expect(Object.keys(detail?.results[0]?.metrics.byCategory ?? {})).toEqual(["even", "odd"]);
  });

  it("retries 503 busy answers with backoff and records the attempts", async () => {
    const { store } = current();
    const fake = await endpoint({ busyFirst: 2 });
    const run = await newRun(3, ["cpu"], 1);
    await executeRun({ store, invoke: httpInvoker(() => fake.url), retry: fastRetry }, run.id);
    const results = await runResults(store, run.id);
    expect(results.map((result) => [result.attempts, result.errorKind])).toEqual([
      [3, null],
      [3, null],
      [3, null],
    ]);
  });

  it("does not retry a 503 that is not the container's retryable busy answer", async () => {
    const { store } = current();
    const fake = await endpoint({ failIds: { "item-0": 503 } });
    const run = await newRun(1, ["cpu"], 1);
    await executeRun({ store, invoke: httpInvoker(() => fake.url), retry: fastRetry }, run.id);
    expect((await runResults(store, run.id)).map((result) => [result.attempts, result.errorKind])).toEqual([
      [1, "busy"],
    ]);
    expect(fake.requests).toBe(1);
  });

  it("records failures by kind without stopping the run", async () => {
    const { store } = current();
    const fake = await endpoint({ busyFirst: 0, failIds: { "item-1": 400, "item-2": 500 } });
    const busy = await endpoint({ busyFirst: 99 });
    const run = await newRun(3, ["a", "b"]);
    const invoke = httpInvoker((name) => (name === "a" ? fake.url : busy.url));
    expect(await executeRun({ store, invoke, retry: fastRetry }, run.id)).toBe("completed");
    const detail = await evaluationDetail(store, run.id);
    expect(detail?.results[0]?.metrics.errors).toEqual({ rejected: 1, server_error: 1 });
    expect(detail?.results[1]?.metrics.errors).toEqual({ busy: 3 });
    const rejected = (await runResults(store, run.id)).find(
      (result) => result.itemId === "item-1" && result.slot === 0,
    );
    expect(rejected?.errorMessage).toBe("refused item-1");
  });

  it("ends a run that got no answer to some items as completed with failures, never plain completed", async () => {
    const { store } = current();
    const answering = await endpoint();
    const busy = await endpoint({ busyFirst: 99 });
    const run = await newRun(3, ["a", "b"]);
    const invoke = httpInvoker((name) => (name === "a" ? answering.url : busy.url));
    await executeRun({ store, invoke, retry: fastRetry }, run.id);
    const detail = await evaluationDetail(store, run.id);
    expect(detail).toMatchObject({ outcome: "completed_with_failures", failedItems: 3 });
    expect(detail?.accuracy[1]).toMatchObject({ answered: 0, failed: 3, accuracy: null });
  });

  it("asks only the failed items again on a retry and completes once they are answered", async () => {
    const { store } = current();
    const fake = await endpoint({ busyFirst: fastRetry.maxRetries + 2 });
    const run = await newRun(2, ["a"]);
    const deps = { store, invoke: httpInvoker(() => fake.url), retry: fastRetry };
    await executeRun(deps, run.id);
    expect(await evaluationDetail(store, run.id)).toMatchObject({ failedItems: 2 });

    expect(await retryFailedItems(deps, run.id)).toBe(2);
    while ((await findRun(store, run.id))?.status === "running") await pause();
    expect(await evaluationDetail(store, run.id)).toMatchObject({ outcome: "completed", failedItems: 0 });
    expect(fake.scored.sort()).toEqual(["item-0", "item-1"]);
  });

  it("leaves a run with no failed item as it is: nothing is asked again, so the call can be repeated", async () => {
    const { store } = current();
    const fake = await endpoint();
    const run = await newRun(2, ["a"]);
    const deps = { store, invoke: httpInvoker(() => fake.url), retry: fastRetry };
    await executeRun(deps, run.id);
    const scoredBefore = fake.scored.length;
    expect(await retryFailedItems(deps, run.id)).toBe(0);
    expect(await evaluationDetail(store, run.id)).toMatchObject({ outcome: "completed", failedItems: 0 });
    expect(fake.scored.length).toBe(scoredBefore);
  });

  it("ends a run with every item answered as completed", async () => {
    const { store } = current();
    const fake = await endpoint();
    const run = await newRun(3, ["a"]);
    await executeRun({ store, invoke: httpInvoker(() => fake.url), retry: fastRetry }, run.id);
    expect(await evaluationDetail(store, run.id)).toMatchObject({ outcome: "completed", failedItems: 0 });
  });

  it("compares two endpoints item by item", async () => {
    const { store } = current();
    const fake = await endpoint();
    const run = await newRun(6, ["cpu", "gpu"]);
    const invoke = httpInvoker(() => fake.url);
    await executeRun({ store, invoke, retry: fastRetry }, run.id);
    const detail = await evaluationDetail(store, run.id);
    expect(detail?.comparison?.rows.map((row) => [row.endpointName, row.answered])).toEqual([
      ["cpu", 6],
      ["gpu", 6],
    ]);
    // The fake scores by decision id only, so both endpoints choose the same options.
    expect(detail?.comparison).toMatchObject({ compared: 6, disagreements: [] });
  });

  it("records what each endpoint ran on and shows it in the comparison", async () => {
    const { store } = current();
    const fake = await endpoint();
    const dataset = await createDataset(store, { name: "set", source: "upload", format: "jsonl", items: labelled(3) });
    const checkEndpoint = async (name: string) => ({
      configuration: name === "cpu" ? "ml.c6i.8xlarge, 32 threads" : null,
    });
    const deps = { store, invoke: httpInvoker(() => fake.url), retry: fastRetry, checkEndpoint };
    const run = await startEvaluation(deps, { datasetId: dataset.id, endpoints: ["cpu", "gpu"] });
    while ((await findRun(store, run.id))?.status === "running") await pause();
    const rows = (await evaluationDetail(store, run.id))?.comparison?.rows;
    expect(rows?.map((row) => [row.endpointName, row.configuration])).toEqual([
      ["cpu", "ml.c6i.8xlarge, 32 threads"],
      ["gpu", null],
    ]);
  });

  it("stops sending requests once cancelled and keeps what finished", async () => {
    const { store } = current();
    const fake = await endpoint({ delayMs: 20 });
    const run = await newRun(40, ["cpu"], 1);
    const deps = { store, invoke: httpInvoker(() => fake.url), retry: fastRetry };
    const done = startRun(deps, run.id);
    while ((await runResults(store, run.id)).length < 3) await pause();
    expect(await cancelRun(deps, run.id)).toBe(true);
    await done;
    const stored = (await runResults(store, run.id)).length;
    expect((await findRun(store, run.id))?.status).toBe("cancelled");
    expect(stored).toBeLessThan(40);
    expect(fake.requests).toBeLessThanOrEqual(stored + 1);
    expect(await cancelRun(deps, run.id)).toBe(false);
  });

  it("reads the run's status once for each item it scores", async () => {
    const { store } = current();
    const fake = await endpoint();
    const statusReads = async (items: number) => {
      let reads = 0;
      const counted = store.withPlugin({
        transformQuery: ({ node }) => {
          const text = JSON.stringify(node);
          if (node.kind === "SelectQueryNode" && text.includes('"evaluation_runs"') && text.includes('"status"'))
            reads++;
          return node;
        },
        transformResult: async ({ result }) => result,
      });
      const run = await newRun(items, ["cpu"], 1);
      expect(await executeRun({ store: counted, invoke: httpInvoker(() => fake.url), retry: fastRetry }, run.id)).toBe(
        "completed",
      );
      return reads;
    };
    const forThree = await statusReads(3);
    expect(await statusReads(6)).toBe(forThree + 3);
  });

  it("keeps a dataset an evaluation uses", async () => {
    const { store } = current();
    const run = await newRun(2, ["cpu"]);
    await expect(deleteDataset(store, run.dataset_id)).rejects.toMatchObject({
      status: 409,
      message: "1 evaluation(s) use this dataset; delete them first to keep their results.",
    });
  });

  it("is worked by the replica holding its lease; another takes it over once that lease expires", async () => {
    const { store } = current();
    const fake = await endpoint();
    const run = await newRun(4, ["cpu"]);
    expect(await acquireLease(store, runLeaseName(run.id), "replica-that-died", 300)).toBe(true);
    const deps = { store, invoke: httpInvoker(() => fake.url), retry: fastRetry, holder: "replica-b" };
    expect(await executeRun(deps, run.id)).toBe("running");
    expect(fake.requests).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await executeRun(deps, run.id)).toBe("completed");
    expect(fake.scored).toHaveLength(4);
    expect(await leaseHolder(store, runLeaseName(run.id))).toBeNull();
  });

  it("asked of two replicas at once, is worked by one of them: no item is sent twice", async () => {
    const { store } = current();
    const fake = await endpoint({ delayMs: 5 });
    const run = await newRun(10, ["cpu"]);
    const deps = (holder: string) => ({ store, invoke: httpInvoker(() => fake.url), retry: fastRetry, holder });
    const outcomes = await Promise.all([executeRun(deps("a"), run.id), executeRun(deps("b"), run.id)]);
    expect(outcomes.sort()).toEqual(["completed", "running"]);
    expect(fake.scored.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `item-${i}`).sort());
  });

  it("stops asking when its lease is taken over, and leaves the run running for the new holder", async () => {
    const { store } = current();
    const fake = await endpoint({ delayMs: 20 });
    const run = await newRun(40, ["cpu"], 1);
    const deps = {
      store,
      invoke: httpInvoker(() => fake.url),
      retry: fastRetry,
      holder: "a",
      lease: { ttlMs: 2_000, renewEveryMs: 30 },
    };
    const done = executeRun(deps, run.id);
    while ((await runResults(store, run.id)).length < 3) await pause();
    await store.updateTable("leases").set({ holder: "b" }).where("name", "=", runLeaseName(run.id)).execute();
    expect(await done).toBe("running");
    expect((await runResults(store, run.id)).length).toBeLessThan(40);
    expect(await leaseHolder(store, runLeaseName(run.id))).toBe("b");
  });

  it("finishes every item exactly once after the process working the run is killed and started again", async () => {
    const { store, location } = current();
    const database = "sqliteFile" in location ? location.sqliteFile : location.postgresUrl;
    const fake = await endpoint({ delayMs: 15 });
    const run = await newRun(60, ["cpu"], 3);
    const worker = () => {
      const child = spawn(
        process.execPath,
        ["--import", "tsx", "tests/support/evaluate/run-worker.ts", database, run.id, fake.url],
        { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, RUN_WORKER_LEASE_MS: "1500" } },
      );
      children.push(child);
      return child;
    };
    const first = worker();
    const exited = new Promise((resolve) => first.on("exit", resolve));
    while ((await runResults(store, run.id)).length < 15) await pause();
    first.kill("SIGKILL");
    await exited;
    const finishedBeforeKill = new Set((await runResults(store, run.id)).map((result) => result.itemId));
    expect(finishedBeforeKill.size).toBeLessThan(60);
    expect((await findRun(store, run.id))?.status).toBe("running");
    const scoredBeforeRestart = fake.scored.length;

    expect(await workerOutcome(worker())).toEqual({ runId: run.id, status: "completed" });

    const results = await runResults(store, run.id);
    expect(results).toHaveLength(60);
    expect(new Set(results.map((result) => result.position)).size).toBe(60);
    const askedAfterRestart = fake.scored.slice(scoredBeforeRestart);
    expect(askedAfterRestart.filter((id) => finishedBeforeKill.has(id))).toEqual([]);
    expect((await findRun(store, run.id))?.status).toBe("completed");
  });
});
