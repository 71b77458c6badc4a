import { readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { readConfig } from "../src/engine/config.ts";
import { startAdapter } from "../src/http/app.ts";
import type { ModelKind } from "../test/support/llama-model.ts";
import { benchModelPath, jevbenchRows, stratifiedSample } from "./bench-files.ts";
import type { BenchContext, BenchSection } from "./section.ts";

/**
 * npm run bench:adapter -- [--full] [--per-stratum N] [--kind bench-0.5b|tiny|...] [--model file.gguf] [--repeats N]
 *   [--sections a,b]
 *
 * Prints a table, then one JSON line with overhead_ratio, shared_speedup, jevbench_p50_ms, jevbench_p95_ms, the
 * other sections' keys and the model. By default JevBench is a stratified sample (per type x tier, `--per-stratum`
 * items of median prompt length each: 8 decisions, minutes on one CPU thread); `--full` sends all 231 (over an hour
 * there). `--model`: a GGUF (default the generated bench/out/bench-0.5b.gguf, written on first use); `--repeats`
 * (default 5). The adapter's own variables configure it as they would in production: ADAPTER_THREADS (default 1
 * here), ADAPTER_PARALLEL. Long sections report progress on stderr.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    full: { type: "boolean", default: false },
    "per-stratum": { type: "string", default: "1" },
    kind: { type: "string" },
    model: { type: "string" },
    repeats: { type: "string", default: "5" },
    sections: { type: "string" },
  },
});

async function loadSections(wanted: string[] | null): Promise<BenchSection[]> {
  const directory = path.join(here, "sections");
  const sections: BenchSection[] = [];
  for (const file of readdirSync(directory).filter((name) => name.endsWith(".section.ts"))) {
    const section = ((await import(pathToFileURL(path.join(directory, file)).href)) as { default: BenchSection })
      .default;
    if (!wanted || wanted.includes(section.name)) sections.push(section);
  }
  return sections.sort((a, b) => a.order - b.order);
}

const modelPath = benchModelPath(values.model, values.kind as ModelKind | undefined);
const rows = jevbenchRows();
const sample = values.full ? rows : stratifiedSample(rows, Number(values["per-stratum"]));
// 8192 tokens per prompt: the longest JevBench decisions need ~5,800 with the synthetic vocabulary.
const config = readConfig({
  SEMIF_MAX_TOKENS: "8192",
  ADAPTER_THREADS: "1",
  ...process.env,
  ADAPTER_MODEL_PATH: modelPath,
  SAGEMAKER_BIND_TO_PORT: "0",
});
process.stderr.write(
  `bench:adapter: ${path.basename(modelPath)}, ${config.threads} thread(s), ADAPTER_PARALLEL=${config.parallel}, ` +
    `JevBench ${sample.length}/${rows.length}${values.full ? "" : " (stratified sample; --full for all)"}, ` +
    `load average ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(" ")}\n`,
);
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
      await engine.pool.clearIdle();
      engine.decisions.cache?.clear();
    },
    jevbench: sample,
    repeats: Number(values.repeats),
  };
  const summary: Record<string, unknown> = {};
  const table: Array<Record<string, string | number>> = [];
  const loads: number[] = [];
  for (const section of await loadSections(values.sections?.split(",").map((name) => name.trim()) ?? null)) {
    const started = performance.now();
    const result = await section.run(context);
    loads.push(os.loadavg()[0]!);
    process.stderr.write(`section ${section.name} done in ${Math.round((performance.now() - started) / 1000)} s\n`);
    table.push(...result.rows.map((row) => ({ section: section.name, ...row })));
    Object.assign(summary, result.summary);
  }
  console.table(table);
  const { metadata } = engine;
  console.log(
    JSON.stringify({
      ...summary,
      jevbench_sample: values.full ? "full" : `${sample.length} stratified`,
      load_average_1m: loads.map((load) => Math.round(load * 10) / 10),
      model: {
        file: metadata.file,
        name: metadata.name,
        bytes: metadata.bytes,
        backend: metadata.backend,
        threads: metadata.threads,
        parallel: metadata.parallel,
        context_size: metadata.context_size,
      },
    }),
  );
} finally {
  await adapter.close();
}
