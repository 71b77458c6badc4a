import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readConfig } from "../src/engine/config.ts";
import { startAdapter } from "../src/http/app.ts";
import { percentile, round } from "./section.ts";

/**
 * npm run bench:adapter-parallel — decision throughput at client concurrency 1/2/4/8 with ADAPTER_PARALLEL=n
 * (n = concurrency, SEMIF_MAX_IN_FLIGHT = n), against the serial adapter (ADAPTER_PARALLEL=1) at concurrency 1,
 * side by side in one run. Prompts are distinct (no prefix reuse between requests). Knobs: BENCH_MODEL (default
 * the generated bench/out/adapter-bench-0.5b.gguf, made by `npm run bench:adapter`), BENCH_PARALLEL_REQUESTS
 * (per level, default 16), BENCH_STATE_WORDS (prompt length, default 60 words), ADAPTER_THREADS.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const modelPath = process.env.BENCH_MODEL
  ? path.resolve(process.env.INIT_CWD ?? process.cwd(), process.env.BENCH_MODEL)
  : path.join(repoRoot, "bench/out/adapter-bench-0.5b.gguf");
if (!existsSync(modelPath))
  throw new Error(`${modelPath} is missing: run npm run bench:adapter once, or set BENCH_MODEL`);
const requests = Number(process.env.BENCH_PARALLEL_REQUESTS ?? 16);
const words = Number(process.env.BENCH_STATE_WORDS ?? 60);
const filler = "the customer asked support about the refund policy and the receipt before the trial ended";

function decisionBody(index: number) {
  const text = Array.from({ length: words }, (_, i) => filler.split(" ")[(i + index) % 15]).join(" ");
  return {
    decision: {
      id: `r${index}`,
      state: `Ticket ${index}: ${text}.`,
      question: "Refund?",
      options: [
        { id: "yes", description: "Refund." },
        { id: "no", description: "Decline." },
      ],
    },
  };
}

async function measure(parallel: number, concurrency: number) {
  const config = readConfig({
    SEMIF_MAX_TOKENS: "1024",
    ...process.env,
    ADAPTER_MODEL_PATH: modelPath,
    ADAPTER_PARALLEL: String(parallel),
    SEMIF_MAX_IN_FLIGHT: String(parallel),
  });
  const adapter = await startAdapter(config, { host: "127.0.0.1", port: 0, log: () => undefined });
  try {
    await adapter.ready;
    const latencies: number[] = [];
    let next = 0;
    let busy = 0;
    const started = performance.now();
    const client = async () => {
      while (next < requests) {
        const body = JSON.stringify(decisionBody(next++ + concurrency * 1000 + parallel * 100000));
        const sent = performance.now();
        const response = await fetch(`${adapter.url}/invocations`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
        await response.json();
        if (response.status === 503) busy++;
        else if (response.status !== 200) throw new Error(`status ${response.status}`);
        latencies.push(performance.now() - sent);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, client));
    const seconds = (performance.now() - started) / 1000;
    return { throughput: requests / seconds, p50: percentile(latencies, 0.5), busy };
  } finally {
    await adapter.close();
  }
}

const serial = await measure(1, 1);
const rows = [
  {
    parallel: 1,
    concurrency: 1,
    "decisions/s": round(serial.throughput, 3),
    "p50 ms": round(serial.p50),
    busy: 0,
    speedup: 1,
  },
];
const summary: Record<string, number> = {};
for (const concurrency of [2, 4, 8]) {
  const result = await measure(concurrency, concurrency);
  const speedup = result.throughput / serial.throughput;
  summary[`throughput_speedup_c${concurrency}`] = round(speedup, 3);
  rows.push({
    parallel: concurrency,
    concurrency,
    "decisions/s": round(result.throughput, 3),
    "p50 ms": round(result.p50),
    busy: result.busy,
    speedup: round(speedup, 3),
  });
}
console.table(rows);
console.log(JSON.stringify({ ...summary, requests, model: path.basename(modelPath), threads: readConfig().threads }));
