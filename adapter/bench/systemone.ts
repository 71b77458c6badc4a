import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type JevBenchItem, jevBenchItemSchema, jevBenchToSystemOne } from "../src/contract/index.ts";
import { readConfig } from "../src/engine/config.ts";
import { startAdapter } from "../src/http/app.ts";

/**
 * Benchmark section for /v1/systemone (DESIGN §10: ratios measured side by side in one run):
 * - `systemone_p50_ms` / `systemone_p95_ms`: client-side latency of the JevBench decisions sent serially as
 *   one-question systemone requests (answered ones; prompts over the adapter's token limit are refused with 422
 *   and counted, never truncated).
 * - `prefix_cache_speedup`: the same ~1,000-token state asked twice in separate requests, cold / warm
 *   (median over rounds; every round starts from a different state so the first request is really cold).
 */

export type SystemOneBenchResult = {
  systemone_p50_ms: number | null;
  systemone_p95_ms: number | null;
  systemone_answered: number;
  systemone_refused: number;
  prefix_cache_cold_ms: number;
  prefix_cache_warm_ms: number;
  prefix_cache_speedup: number;
};

const quantile = (values: readonly number[], q: number): number | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
};

async function post(url: string, body: unknown): Promise<{ status: number; ms: number; body: unknown }> {
  const started = performance.now();
  const response = await fetch(`${url}/v1/systemone`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const parsed = (await response.json()) as unknown;
  return { status: response.status, ms: performance.now() - started, body: parsed };
}

export function readJevBench(file: string): JevBenchItem[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => jevBenchItemSchema.parse(JSON.parse(line)));
}

const cacheState = (round: number) =>
  Array.from(
    { length: 40 },
    (_, line) => `Ticket ${round}-${line}: the customer reports a duplicate charge on invoice ${10_000 + line}.`,
  ).join("\n");

const CACHE_QUESTION = { refund: { type: "noul", instructions: "Does the customer ask for a refund?" } };

/** Runs both measurements against an adapter that is up (GET /ping 200). */
export async function benchSystemOne(
  url: string,
  items: readonly JevBenchItem[],
  options: { rounds?: number; log?: (line: string) => void } = {},
): Promise<SystemOneBenchResult> {
  const log = options.log ?? (() => undefined);
  const latencies: number[] = [];
  let refused = 0;
  for (const item of items) {
    const answer = await post(url, jevBenchToSystemOne(item).request);
    if (answer.status === 200) latencies.push(answer.ms);
    else if (answer.status === 422) refused++;
    else throw new Error(`systemone answered ${answer.status} for ${item.id}: ${JSON.stringify(answer.body)}`);
  }
  log(`systemone: ${latencies.length} answered, ${refused} refused as over the token limit`);

  const cold: number[] = [];
  const warm: number[] = [];
  for (let round = 0; round < (options.rounds ?? 5); round++) {
    const body = { state: cacheState(round), questions: CACHE_QUESTION };
    const first = await post(url, body);
    const second = await post(url, body);
    const reused = (second.body as { timing?: { prefix_reused?: boolean } }).timing?.prefix_reused;
    if (first.status !== 200 || second.status !== 200 || reused !== true) {
      throw new Error(`prefix cache round ${round} failed: ${first.status}/${second.status}, reused=${reused}`);
    }
    cold.push(first.ms);
    warm.push(second.ms);
  }
  const coldMs = quantile(cold, 0.5)!;
  const warmMs = quantile(warm, 0.5)!;
  return {
    systemone_p50_ms: quantile(latencies, 0.5),
    systemone_p95_ms: quantile(latencies, 0.95),
    systemone_answered: latencies.length,
    systemone_refused: refused,
    prefix_cache_cold_ms: coldMs,
    prefix_cache_warm_ms: warmMs,
    prefix_cache_speedup: coldMs / warmMs,
  };
}

/** `tsx adapter/bench/systemone.ts <model.gguf> [threads]`: this section alone, on its own adapter. */
async function main() {
  const [modelPath, threads] = process.argv.slice(2);
  if (!modelPath) throw new Error("usage: tsx adapter/bench/systemone.ts <model.gguf> [threads]");
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
  const jevbench = path.resolve(repo, "..", "shared", "bench", "jevbench.jsonl");
  const config = readConfig({
    ...process.env,
    ADAPTER_MODEL_PATH: modelPath,
    ...(threads ? { ADAPTER_THREADS: threads } : {}),
  });
  const adapter = await startAdapter(config, { host: "127.0.0.1", port: 0, log: () => undefined });
  try {
    await adapter.ready;
    const result = await benchSystemOne(adapter.url, readJevBench(jevbench), { log: (line) => console.log(line) });
    console.table(result);
    console.log(JSON.stringify({ model: path.basename(modelPath), threads: config.threads, ...result }));
  } finally {
    await adapter.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
