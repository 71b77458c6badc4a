import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { readConfig } from "../src/engine/config.ts";
import { startAdapter } from "../src/http/app.ts";
import { modelSpec, writeModel } from "../test/support/llama-model.ts";
import type { BenchContext, BenchSection, JevBenchRow } from "./section.ts";

/**
 * npm run bench:adapter — prints a table, then one JSON line with overhead_ratio, shared_speedup,
 * jevbench_p50_ms, jevbench_p95_ms and the model. Knobs: BENCH_MODEL (a GGUF; default: the generated ~0.5B
 * Qwen2.5-shaped model in bench/out/), ADAPTER_THREADS, BENCH_REPEATS (overhead pairs, default 8),
 * BENCH_JEVBENCH_LIMIT (first N of the 231 decisions), BENCH_SECTIONS (comma-separated names).
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "../..");

function benchModel(): string {
  if (process.env.BENCH_MODEL) return path.resolve(process.env.INIT_CWD ?? process.cwd(), process.env.BENCH_MODEL);
  const file = path.join(repoRoot, "bench/out/adapter-bench-0.5b.gguf");
  if (!existsSync(file)) {
    const words = path.resolve(repoRoot, "../shared/bench/jevbench.jsonl");
    process.stderr.write(`generating ${file} (~530 MB, Qwen2.5-0.5B shapes, Q8_0, random weights)\n`);
    writeModel(
      modelSpec("bench-0.5b", { extraText: existsSync(words) ? readFileSync(words, "utf8") : undefined }),
      file,
    );
  }
  return file;
}

function jevbench(): JevBenchRow[] | null {
  const file = path.resolve(repoRoot, "../shared/bench/jevbench.jsonl");
  if (!existsSync(file)) return null;
  const rows = readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as JevBenchRow);
  const limit = Number(process.env.BENCH_JEVBENCH_LIMIT ?? rows.length);
  return rows.slice(0, limit);
}

async function loadSections(): Promise<BenchSection[]> {
  const directory = path.join(here, "sections");
  const wanted = process.env.BENCH_SECTIONS?.split(",").map((name) => name.trim());
  const sections: BenchSection[] = [];
  for (const file of readdirSync(directory).filter((name) => name.endsWith(".section.ts"))) {
    const section = ((await import(pathToFileURL(path.join(directory, file)).href)) as { default: BenchSection })
      .default;
    if (!wanted || wanted.includes(section.name)) sections.push(section);
  }
  return sections.sort((a, b) => a.order - b.order);
}

const modelPath = benchModel();
// 8192 tokens per prompt: the longest JevBench decisions need ~5,800 with the synthetic vocabulary.
const config = readConfig({
  SEMIF_MAX_TOKENS: "8192",
  ...process.env,
  ADAPTER_MODEL_PATH: modelPath,
  SAGEMAKER_BIND_TO_PORT: "0",
});
const adapter = await startAdapter(config, { host: "127.0.0.1", port: 0, log: () => undefined });
try {
  const engine = await adapter.ready;
  const context: BenchContext = {
    url: adapter.url,
    engine,
    async invoke(body) {
      const started = performance.now();
      const response = await fetch(`${adapter.url}/invocations`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const parsed = (await response.json()) as unknown;
      return { status: response.status, body: parsed, ms: performance.now() - started };
    },
    async coldStart() {
      for (let index = 0; index < config.parallel; index++) {
        await engine.pool.lease([], (sequence) => sequence.clearHistory());
      }
    },
    jevbench: jevbench(),
    repeats: Number(process.env.BENCH_REPEATS ?? 8),
  };
  const summary: Record<string, unknown> = {};
  const rows: Array<Record<string, string | number>> = [];
  for (const section of await loadSections()) {
    const started = performance.now();
    const result = await section.run(context);
    process.stderr.write(`section ${section.name} done in ${Math.round((performance.now() - started) / 1000)} s\n`);
    rows.push(...result.rows.map((row) => ({ section: section.name, ...row })));
    Object.assign(summary, result.summary);
  }
  console.table(rows);
  const { metadata } = engine;
  console.log(
    JSON.stringify({
      ...summary,
      model: {
        file: metadata.file,
        name: metadata.name,
        bytes: metadata.bytes,
        backend: metadata.backend,
        threads: metadata.threads,
        context_size: metadata.context_size,
      },
    }),
  );
} finally {
  await adapter.close();
}
