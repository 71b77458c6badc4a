import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeEndpoint,
  startFakeDecisionEndpoint,
} from "../../../tests/support/evaluate/fake-decision-endpoint.ts";
import { workerOutcome } from "../../../tests/support/evaluate/worker-outcome.ts";
import { defaultBusyRetryPolicy } from "../../invoke/busy-retry.ts";
import { type Db, openDatabase } from "../../store/database.ts";
import { createDataset } from "../datasets/dataset-store.ts";
import type { LabelledDecision } from "../datasets/labelled-decision.ts";
import { startEvaluation } from "./evaluation-commands.ts";
import { httpInvoker } from "./invoker.ts";
import { cancelRun, startRun } from "./run-registry.ts";
import { claimRun, createRun, findRun, runResults } from "./run-store.ts";
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

describe("evaluation runs", () => {
  let dir: string;
  let file: string;
  let db: Db;
  const endpoints: FakeEndpoint[] = [];
  const children: ChildProcess[] = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "runs-"));
    file = path.join(dir, "console.db");
    db = openDatabase(file);
  });
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
    await Promise.all(endpoints.splice(0).map((endpoint) => endpoint.close()));
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function endpoint(options: Parameters<typeof startFakeDecisionEndpoint>[0] = {}) {
    const started = await startFakeDecisionEndpoint(options);
    endpoints.push(started);
    return started;
  }

  function newRun(count: number, names: string[], concurrency = 2) {
    const dataset = createDataset(db, { name: "set", source: "upload", format: "jsonl", items: labelled(count) });
    return createRun(db, { datasetId: dataset.id, endpoints: names, concurrency, targetAccuracy: 0.8 });
  }

  it("scores every item once, stores probabilities, latency and adapter time, and completes", async () => {
    const fake = await endpoint({ delayMs: 2 });
    const run = newRun(12, ["cpu"]);
    const status = await executeRun({ db, invoke: httpInvoker(() => fake.url), retry: fastRetry }, run.id);
    expect(status).toBe("completed");
    const results = runResults(db, run.id);
    expect(results.map((result) => result.itemId).sort()).toEqual([...fake.scored].sort());
    expect(results).toHaveLength(12);
    const first = results[0];
    expect(first?.probabilities?.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    expect(first?.adapterMs).toBeCloseTo(2, 6);
    expect(first?.latencyMs).toBeGreaterThan(0);
    const detail = evaluationDetail(db, run.id);
    expect(detail?.progress).toMatchObject({ done: 12, total: 12, etaSeconds: null });
    expect(detail?.results[0]?.metrics.accuracy.total).toBe(12);
    expect(Object.keys(detail?.results[0]?.metrics.byCategory ?? {})).toEqual(["even", "odd"]);
  });

  it("retries 503 busy answers with backoff and records the attempts", async () => {
    const fake = await endpoint({ busyFirst: 2 });
    const run = newRun(3, ["cpu"], 1);
    await executeRun({ db, invoke: httpInvoker(() => fake.url), retry: fastRetry }, run.id);
    const results = runResults(db, run.id);
    expect(results.map((result) => [result.attempts, result.errorKind])).toEqual([
      [3, null],
      [3, null],
      [3, null],
    ]);
  });

  it("does not retry a 503 that is not the container's retryable busy answer", async () => {
    const fake = await endpoint({ failIds: { "item-0": 503 } });
    const run = newRun(1, ["cpu"], 1);
    await executeRun({ db, invoke: httpInvoker(() => fake.url), retry: fastRetry }, run.id);
    expect(runResults(db, run.id).map((result) => [result.attempts, result.errorKind])).toEqual([[1, "busy"]]);
    expect(fake.requests).toBe(1);
  });

  it("records failures by kind without stopping the run", async () => {
    const fake = await endpoint({ busyFirst: 0, failIds: { "item-1": 400, "item-2": 500 } });
    const busy = await endpoint({ busyFirst: 99 });
    const run = newRun(3, ["a", "b"]);
    const invoke = httpInvoker((name) => (name === "a" ? fake.url : busy.url));
    expect(await executeRun({ db, invoke, retry: fastRetry }, run.id)).toBe("completed");
    const detail = evaluationDetail(db, run.id);
    expect(detail?.results[0]?.metrics.errors).toEqual({ rejected: 1, server_error: 1 });
    expect(detail?.results[1]?.metrics.errors).toEqual({ busy: 3 });
    const rejected = runResults(db, run.id).find((result) => result.itemId === "item-1" && result.slot === 0);
    expect(rejected?.errorMessage).toBe("refused item-1");
  });

  it("compares two endpoints item by item", async () => {
    const fake = await endpoint();
    const run = newRun(6, ["cpu", "gpu"]);
    const invoke = httpInvoker(() => fake.url);
    await executeRun({ db, invoke, retry: fastRetry }, run.id);
    const detail = evaluationDetail(db, run.id);
    expect(detail?.comparison?.rows.map((row) => [row.endpointName, row.total])).toEqual([
      ["cpu", 6],
      ["gpu", 6],
    ]);
    // The fake scores by decision id only, so both endpoints choose the same options.
    expect(detail?.comparison).toMatchObject({ compared: 6, disagreements: [] });
  });

  it("records what each endpoint ran on and shows it in the comparison", async () => {
    const fake = await endpoint();
    const dataset = createDataset(db, { name: "set", source: "upload", format: "jsonl", items: labelled(3) });
    const checkEndpoint = async (name: string) => ({
      configuration: name === "cpu" ? "ml.c6i.8xlarge, 32 threads" : null,
    });
    const deps = { db, invoke: httpInvoker(() => fake.url), retry: fastRetry, checkEndpoint };
    const run = await startEvaluation(deps, { datasetId: dataset.id, endpoints: ["cpu", "gpu"] });
    while (findRun(db, run.id)?.status === "running") await new Promise((resolve) => setTimeout(resolve, 10));
    const rows = evaluationDetail(db, run.id)?.comparison?.rows;
    expect(rows?.map((row) => [row.endpointName, row.configuration])).toEqual([
      ["cpu", "ml.c6i.8xlarge, 32 threads"],
      ["gpu", null],
    ]);
  });

  it("stops sending requests once cancelled and keeps what finished", async () => {
    const fake = await endpoint({ delayMs: 20 });
    const run = newRun(40, ["cpu"], 1);
    const deps = { db, invoke: httpInvoker(() => fake.url), retry: fastRetry };
    const done = startRun(deps, run.id);
    while (runResults(db, run.id).length < 3) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(cancelRun(deps, run.id)).toBe(true);
    await done;
    const stored = runResults(db, run.id).length;
    expect(findRun(db, run.id)?.status).toBe("cancelled");
    expect(stored).toBeLessThan(40);
    expect(fake.requests).toBeLessThanOrEqual(stored + 1);
    expect(cancelRun(deps, run.id)).toBe(false);
  });

  it("lets only one live process work a run, and takes over from a dead one", () => {
    const run = newRun(1, ["cpu"]);
    expect(claimRun(db, run.id, process.pid)).toBe(true);
    expect(claimRun(db, run.id, process.ppid)).toBe(false);
    db.prepare("UPDATE evaluation_runs SET owner_pid = ? WHERE id = ?").run(2 ** 22 + 12345, run.id);
    expect(claimRun(db, run.id, process.ppid)).toBe(true);
    expect(findRun(db, run.id)?.owner_pid).toBe(process.ppid);
  });

  it("finishes every item exactly once after the process working the run is killed and started again", async () => {
    const fake = await endpoint({ delayMs: 15 });
    const run = newRun(60, ["cpu"], 3);
    const worker = () => {
      const child = spawn(
        process.execPath,
        ["--import", "tsx", "tests/support/evaluate/run-worker.ts", file, run.id, fake.url],
        { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] },
      );
      children.push(child);
      return child;
    };
    const first = worker();
    const exited = new Promise((resolve) => first.on("exit", resolve));
    while (runResults(db, run.id).length < 15) await new Promise((resolve) => setTimeout(resolve, 10));
    first.kill("SIGKILL");
    await exited;
    const finishedBeforeKill = new Set(runResults(db, run.id).map((result) => result.itemId));
    expect(finishedBeforeKill.size).toBeLessThan(60);
    expect(findRun(db, run.id)?.status).toBe("running");
    const scoredBeforeRestart = fake.scored.length;

    expect(await workerOutcome(worker())).toEqual({ runId: run.id, status: "completed" });

    const results = runResults(db, run.id);
    expect(results).toHaveLength(60);
    expect(new Set(results.map((result) => result.position)).size).toBe(60);
    const askedAfterRestart = fake.scored.slice(scoredBeforeRestart);
    expect(askedAfterRestart.filter((id) => finishedBeforeKill.has(id))).toEqual([]);
    expect(findRun(db, run.id)?.status).toBe("completed");
  });
});
