import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { parseArgs } from "node:util";
import { benchModel, benchOut } from "../adapter/bench/bench-files.ts";
import { Progress } from "../adapter/bench/progress.ts";
import type { ModelKind } from "../adapter/test/support/llama-model.ts";
import { datasetItems } from "../server/evaluate/datasets/dataset-store.ts";
import { loadSample } from "../server/evaluate/datasets/samples.ts";
import { httpInvoker } from "../server/evaluate/runs/invoker.ts";
import { createRun, runResults } from "../server/evaluate/runs/run-store.ts";
import { evaluationDetail } from "../server/evaluate/runs/run-view.ts";
import { executeRun } from "../server/evaluate/runs/runner.ts";
import { openDatabase } from "../server/store/database.ts";
import { sqliteStore } from "../server/store/sqlite-store.ts";

/**
 * npm run bench:evaluate -- [--limit N] [--concurrency 1] [--threads 2] [--model file.gguf | --kind bench-0.5b]
 *
 * Runs JevBench through the evaluation runner against a local adapter serving a synthetic Qwen2.5-0.5B-shaped GGUF
 * (bench/out/bench-0.5b.gguf, the model bench:adapter uses, generated on first use) and prints the evaluation's
 * own overhead: run wall time over the sum of the adapter's per-item times (`timing.total_seconds`). At
 * concurrency 1 the target is at most 1.15. Progress (items done/total, ETA) goes to stderr; the result is one
 * JSON line on stdout (also written to bench/out/evaluate.json).
 */
const repoRoot = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    limit: { type: "string" },
    concurrency: { type: "string", default: "1" },
    threads: { type: "string", default: String(Math.min(4, os.availableParallelism())) },
    model: { type: "string" },
    kind: { type: "string", default: "bench-0.5b" },
  },
});
const concurrency = Number(values.concurrency);
const model = values.model
  ? path.resolve(process.env.INIT_CWD ?? process.cwd(), values.model)
  : benchModel(values.kind as ModelKind);

/** Starts `adapter serve` on a free loopback port and resolves with its URL once /ping would answer 200. */
function startAdapter(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", "adapter/src/cli.ts", "serve"], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ADAPTER_MODEL_PATH: model,
      ADAPTER_THREADS: values.threads,
      SAGEMAKER_BIND_TO_PORT: "0",
      SEMIF_MAX_IN_FLIGHT: String(concurrency),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let url = "";
    const lines = readline.createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on("line", (line) => {
      let event: { event?: string; url?: string; error?: string };
      try {
        event = JSON.parse(line);
      } catch {
        return;
      }
      if (event.event === "listening" && event.url) url = event.url;
      if (event.event === "ready") resolve({ url, child });
      if (event.event === "start_failed") reject(new Error(`adapter did not start: ${event.error}`));
    });
    child.once("exit", (code) => reject(new Error(`adapter exited with ${code} before it was ready`)));
  });
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-evaluate-"));
const store = sqliteStore(openDatabase(path.join(dir, "console.db")));
const { url, child } = await startAdapter();
try {
  const sample = await loadSample(store, "jevbench", repoRoot);
  if (!sample.ok) throw new Error(sample.message);
  let datasetId = sample.dataset.id;
  if (values.limit) {
    const { createDataset } = await import("../server/evaluate/datasets/dataset-store.ts");
    const items = (await datasetItems(store, datasetId)).slice(0, Number(values.limit));
    const limited = await createDataset(store, {
      name: `jevbench-first-${items.length}`,
      source: "upload",
      format: "jsonl",
      items,
    });
    datasetId = limited.id;
  }
  const run = await createRun(store, { datasetId, endpoints: ["local-adapter"], concurrency, targetAccuracy: 0.9 });
  const started = performance.now();
  const total = (await datasetItems(store, datasetId)).length;
  const progress = new Progress("bench:evaluate items", total);
  let reported = 0;
  const poll = setInterval(() => {
    runResults(store, run.id)
      .then(({ length: done }) => {
        if (done > reported) progress.step(done - reported);
        reported = Math.max(reported, done);
      })
      .catch(() => undefined);
  }, 2000);
  const status = await executeRun({ store, invoke: httpInvoker(() => url) }, run.id).finally(() => clearInterval(poll));
  const wallMs = performance.now() - started;
  const results = await runResults(store, run.id);
  const adapterMs = results.reduce((sum, result) => sum + (result.adapterMs ?? 0), 0);
  const clientMs = results.reduce((sum, result) => sum + result.latencyMs, 0);
  const metrics = (await evaluationDetail(store, run.id))?.results[0]?.metrics;
  const report = {
    model: path.basename(model),
    threads: Number(values.threads),
    concurrency,
    status,
    items: results.length,
    scored: results.filter((result) => result.adapterMs !== null).length,
    errors: metrics?.errors ?? {},
    wallSeconds: wallMs / 1000,
    adapterSecondsSum: adapterMs / 1000,
    clientSecondsSum: clientMs / 1000,
    overheadRatio: wallMs / adapterMs,
    clientOverAdapter: clientMs / adapterMs,
    p50Ms: metrics?.latency.p50 ?? null,
    p95Ms: metrics?.latency.p95 ?? null,
    accuracy: metrics?.accuracy ?? null,
  };
  const out = path.join(benchOut, "evaluate.json");
  fs.mkdirSync(benchOut, { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  console.error(
    `evaluation overhead: run wall ${report.wallSeconds.toFixed(2)} s / adapter time ${report.adapterSecondsSum.toFixed(2)} s = ${report.overheadRatio.toFixed(3)} (target <= 1.15 at concurrency 1)`,
  );
  console.log(JSON.stringify(report));
} finally {
  child.kill("SIGTERM");
  await store.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}
