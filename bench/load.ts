import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { nearestRankQuantile } from "@decision-console/adapter/contract";
import { defaultBusyRetryPolicy, isBusyAnswer, retryWhileBusy } from "../server/invoke/busy-retry.ts";
import { AdapterProcess } from "../server/local/endpoints/adapter-process.ts";

/**
 * npm run bench:load -- [--requests 96] [--clients 1,4,16] [--parallel 1,4] [--kind tiny] [--model file.gguf]
 *
 * A bounded load test on loopback only: a local endpoint (the adapter started the way local mode starts an
 * endpoint instance, SEMIF_MAX_IN_FLIGHT=1, ADAPTER_PARALLEL 1 and 4) is driven by 1, 4 and 16 concurrent
 * clients that retry 503 "busy" with the console's own policy (capped exponential backoff, full jitter). Every
 * configuration sends the same fixed number of decisions. It prints goodput (decisions answered per second),
 * retries, requests that gave up, and latency including retries, and writes bench/out/load.json.
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

function modelFile(): string {
  if (values.model) return path.resolve(values.model);
  const file = path.join(repoRoot, "bench", "out", `load-${values.kind}.gguf`);
  if (!fs.existsSync(file)) {
    console.error(`generating ${file} (synthetic ${values.kind} model)…`);
    const made = spawnSync(
      "npm",
      ["run", "-s", "make-model", "-w", "adapter", "--", "--kind", values.kind, "--out", file],
      { cwd: repoRoot, stdio: "inherit" },
    );
    if (made.status !== 0) throw new Error("make-model failed");
  }
  return file;
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

async function main() {
  const file = modelFile();
  const modelDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-load-"));
  fs.symlinkSync(file, path.join(modelDir, path.basename(file)));
  const rows: (Awaited<ReturnType<typeof runConfiguration>> & { parallel: number; maxInFlight: number })[] = [];
  try {
    for (const parallel of parallels) {
      const instance = new AdapterProcess({
        repoRoot,
        modelDir,
        home: modelDir,
        environment: { SEMIF_MAX_IN_FLIGHT: "1", ADAPTER_PARALLEL: String(parallel), ADAPTER_THREADS: values.threads },
        onLine: () => undefined,
      });
      await instance.start();
      try {
        await instance.waitUntilHealthy(180_000);
        await invokeOnce(instance.url); // warm-up, not counted
        for (const clients of clientCounts) {
          const row = { parallel, maxInFlight: 1, ...(await runConfiguration(instance.url, clients)) };
          rows.push(row);
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
  const out = path.join(repoRoot, "bench", "out", "load.json");
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), host: os.hostname(), rows }, null, 2)}\n`);
  console.log(`\nwritten ${path.relative(repoRoot, out)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
