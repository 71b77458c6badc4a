import path from "node:path";
import { readConfig } from "../src/engine/config.ts";
import { type Engine, startEngine } from "../src/engine/engine.ts";
import type { ModelKind } from "../test/support/llama-model.ts";
import { benchModelPath } from "./bench-files.ts";

/**
 * The engine the engine-level benchmarks (`bench:shared-schedule`, `bench:shared-costs`) measure, without HTTP:
 * eight sequences, no reading cache (every branch is evaluated), the generated bench model unless `--model`.
 */
export async function withBenchEngine(
  options: { threads: string; kind?: string; model?: string },
  measure: (engine: Engine, model: string) => Promise<void>,
): Promise<void> {
  const modelPath = benchModelPath(options.model, options.kind as ModelKind | undefined);
  const engine = await startEngine(
    readConfig({
      SEMIF_MAX_TOKENS: "8192",
      SEMIF_MAX_REQUEST_TOKENS: "16384",
      ...process.env,
      ADAPTER_MODEL_PATH: modelPath,
      ADAPTER_THREADS: options.threads,
      ADAPTER_PARALLEL: "8",
      ADAPTER_READING_CACHE: "0",
    }),
  );
  try {
    await measure(engine, path.basename(modelPath));
  } finally {
    await engine.dispose();
  }
}

export const median = (samples: readonly number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Milliseconds `run` takes, awaited. */
export async function timed(run: () => unknown): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}
