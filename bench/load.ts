import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { nearestRankQuantile } from "@decision-console/adapter/contract";
import { AdapterProcess } from "@decision-console/local-aws/testing";
import { benchModel, benchOut } from "../adapter/bench/bench-files.ts";
import { Progress } from "../adapter/bench/progress.ts";
import type { ModelKind } from "../adapter/test/support/llama-model.ts";
import { workspaceStackFixture } from "../infra/local-stack/workspace-fixture.ts";
import { defaultBusyRetryPolicy, isBusyAnswer, retryWhileBusy } from "../server/invoke/busy-retry.ts";

/**
 * npm run bench:load -- [--requests 96] [--clients 1,4,16] [--parallel 1,4] [--kind tiny] [--model file.gguf]
 *
 * A bounded load test on loopback only: a local endpoint (the adapter started the way local mode starts an
 * endpoint instance, SEMIF_MAX_IN_FLIGHT=1, ADAPTER_PARALLEL 1 and 4) is driven by 1, 4 and 16 concurrent
 * clients that retry 503 "busy" with the console's own policy (capped exponential backoff, full jitter). Every
 * configuration sends the same fixed number of decisions. It prints goodput (decisions answered per second),
 * retries, requests that gave up, and latency including retries, and writes bench/out/load.json. The model is
 * the generated bench/out/bench-<kind>.gguf (`--kind tiny` by default; `--kind bench-0.5b` is the model of
 * bench:adapter and bench:evaluate), written on first use. Progress goes to stderr, one JSON line ends stdout.
 */
const repoRoot = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "96" },
    clients: { type: "string", default: "1,4,16" },
    parallel: { type: "string", default: "1,4" },
    kind: { type: "string", default: "tiny" },
    model: { type: "string" },
    threads: { type: "string", default: "1" },
  },
});
const totalRequests = Number(values.requests);
const clientCounts = values.clients.split(",").map(Number);
const parallels = values.parallel.split(",").map(Number);

/** `--model` (relative to where the command was typed), else the generated bench model of `--kind`. */
function modelFile(): string {
  if (values.model) return path.resolve(process.env.INIT_CWD ?? process.cwd(), values.model);
  return benchModel(values.kind as ModelKind);
}

const decisionBody = JSON.stringify({
  decision: {
    id: "load",
    state:
      "Ticket #4812: the customer reports that the invoice for October was charged twice. Card ending 4242. " +
      "They attached both bank statements and ask for the duplicate to be refunded within the week.",
    question: "Which team should handle this ticket?",
    options: [
      { id: "billing", description: "Billing: charges, refunds, invoices." },
      { id: "support", description: "Technical support: bugs and outages." },
      { id: "sales", description: "Sales: plans, upgrades, quotes." },
    ],
  },
});

/** One decision through the console's busy-retry policy; a 503 with `retryable: true` is what gets retried. */
async function invokeOnce(url: string): Promise<{ ok: boolean; retries: number; ms: number }> {
  const started = performance.now();
  const { value, retries } = await retryWhileBusy(
    async () => {
      const response = await fetch(`${url}/invocations`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: decisionBody,
      });
      return { status: response.status, body: (await response.json()) as unknown };
    },
    (answer) => isBusyAnswer(answer.status, answer.body),
  );
  if (value.status !== 200 && !isBusyAnswer(value.status, value.body)) {
    throw new Error(`HTTP ${value.status}: ${JSON.stringify(value.body)}`);
  }
  return { ok: value.status === 200, retries, ms: performance.now() - started };
}

const quantile = (sorted: number[], q: number) => nearestRankQuantile(sorted, q) ?? Number.NaN;

async function runConfiguration(url: string, clients: number) {
  const perClient = Math.ceil(totalRequests / clients);
  const outcomes: { ok: boolean; retries: number; ms: number }[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = 0; i < perClient; i++) outcomes.push(await invokeOnce(url));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const answered = outcomes.filter((o) => o.ok);
  const latencies = answered.map((o) => o.ms).sort((a, b) => a - b);
  const retries = outcomes.reduce((sum, o) => sum + o.retries, 0);
  return {
    clients,
    requests: outcomes.length,
    answered: answered.length,
    gaveUp: outcomes.length - answered.length,
    seconds: round(seconds),
    goodputPerSecond: round(answered.length / seconds),
    retries,
    retriesPerRequest: round(retries / outcomes.length),
    maxRetries: Math.max(...outcomes.map((o) => o.retries)),
    p50Ms: round(quantile(latencies, 0.5)),
    p95Ms: round(quantile(latencies, 0.95)),
  };
}

const round = (value: number) => Math.round(value * 100) / 100;

function adapterProgram() {
  const adapter = workspaceStackFixture(repoRoot).imageRepositories.find(
    (repository) => repository.contract === "adapter",
  );
  if (!adapter) throw new Error("the stack fixture has no adapter repository");
  return { program: adapter.programs.cpu, contract: adapter.contract };
}

async function main() {
  const file = modelFile();
  const modelDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-load-"));
  fs.symlinkSync(file, path.join(modelDir, path.basename(file)));
  const rows: (Awaited<ReturnType<typeof runConfiguration>> & { parallel: number; maxInFlight: number })[] = [];
  const progress = new Progress("bench:load configurations", parallels.length * clientCounts.length, 0);
  try {
    for (const parallel of parallels) {
      const instance = new AdapterProcess({
        // The adapter image's program, as local endpoints run it.
        ...adapterProgram(),
        modelDir,
        home: modelDir,
        // Reading cache off: every row repeats one decision, which the cache would answer in a millisecond; with it
        // off each request is scored, as distinct client decisions are.
        environment: {
          SEMIF_MAX_IN_FLIGHT: "1",
          ADAPTER_PARALLEL: String(parallel),
          ADAPTER_THREADS: values.threads,
          ADAPTER_READING_CACHE: "0",
        },
        onLine: () => undefined,
      });
      await instance.start();
      try {
        await instance.waitUntilHealthy(180_000);
        await invokeOnce(instance.url); // warm-up, not counted
        for (const clients of clientCounts) {
          const row = { parallel, maxInFlight: 1, ...(await runConfiguration(instance.url, clients)) };
          rows.push(row);
          progress.step();
          console.error(
            `ADAPTER_PARALLEL=${parallel} clients=${clients}: ${row.goodputPerSecond}/s, ${row.retries} retries`,
          );
        }
      } finally {
        await instance.stop();
      }
    }
  } finally {
    fs.rmSync(modelDir, { recursive: true, force: true });
  }
  const policy = defaultBusyRetryPolicy;
  console.log(
    `\nLoad test on loopback: ${totalRequests} decisions per row, model ${path.basename(file)}, ADAPTER_THREADS=${values.threads}, ` +
      `SEMIF_MAX_IN_FLIGHT=1, busy retry up to ${policy.maxRetries}x, backoff ${policy.baseDelayMs}-${policy.maxDelayMs} ms with full jitter\n`,
  );
  console.log(
    "| ADAPTER_PARALLEL | clients | answered | gave up | goodput/s | retries | retries/req | max | p50 ms | p95 ms |",
  );
  console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    console.log(
      `| ${r.parallel} | ${r.clients} | ${r.answered}/${r.requests} | ${r.gaveUp} | ${r.goodputPerSecond} | ${r.retries} | ${r.retriesPerRequest} | ${r.maxRetries} | ${r.p50Ms} | ${r.p95Ms} |`,
    );
  }
  const out = path.join(benchOut, "load.json");
  const report = { date: new Date().toISOString(), host: os.hostname(), model: path.basename(file), rows };
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwritten ${path.relative(repoRoot, out)}`);
  console.log(JSON.stringify({ ...report, load_average_1m: Math.round(os.loadavg()[0]! * 10) / 10 }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
