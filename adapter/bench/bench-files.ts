import { existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type ModelKind, modelSpec, writeModel } from "../test/support/llama-model.ts";

/**
 * The files every benchmark shares (`bench:adapter`, `bench:adapter-parallel`, `bench:peer`, `bench:evaluate`,
 * `bench:load`): one JevBench lookup and one generated model per kind, created on first use in `bench/out/`.
 */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** Where benchmarks write (generated models, results): BENCH_OUT, else bench/out/ (created on first use). */
export const benchOut = path.resolve(repoRoot, process.env.BENCH_OUT ?? "bench/out");

/**
 * JevBench, looked up as the console's sample loader does: the copy the repository vendors, else the shared copy
 * beside the checkout (the two are the same 231 rows).
 */
export function jevbenchFile(): string {
  const vendored = path.join(repoRoot, "server/evaluate/samples/jevbench.jsonl");
  return existsSync(vendored) ? vendored : path.resolve(repoRoot, "../shared/bench/jevbench.jsonl");
}

export type JevBenchRow = {
  id: string;
  state: unknown;
  question: string;
  options: Array<{ id: string; description: string }>;
  answer?: string;
  type?: string;
  tier?: string;
};

export function jevbenchRows(): JevBenchRow[] {
  return readFileSync(jevbenchFile(), "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as JevBenchRow);
}

/**
 * `perStratum` decisions of every type x tier stratum, spread evenly over the stratum's prompt lengths (one: the
 * median), so the sample keeps JevBench's mix of short and long states.
 */
export function stratifiedSample(rows: readonly JevBenchRow[], perStratum: number): JevBenchRow[] {
  const strata = new Map<string, JevBenchRow[]>();
  for (const row of rows) {
    const key = `${row.type}/${row.tier}`;
    strata.set(key, [...(strata.get(key) ?? []), row]);
  }
  const length = (row: JevBenchRow) => JSON.stringify(row.state).length + row.question.length;
  return [...strata.keys()].sort().flatMap((key) => {
    const members = [...strata.get(key)!].sort((a, b) => length(a) - length(b) || a.id.localeCompare(b.id));
    const count = Math.min(perStratum, members.length);
    return Array.from({ length: count }, (_, i) => members[Math.floor(((i + 0.5) * members.length) / count)]!);
  });
}

/**
 * `bench/out/bench-<kind>.gguf`, written on first use (the 0.5B kind: about 530 MB, a few seconds). Its
 * vocabulary has JevBench's words as whole-word tokens, so JevBench prompts tokenize as a real vocabulary would.
 */
export function benchModel(kind: ModelKind = "bench-0.5b"): string {
  const file = path.join(benchOut, kind === "bench-0.5b" ? "bench-0.5b.gguf" : `bench-${kind}.gguf`);
  if (!existsSync(file)) {
    mkdirSync(benchOut, { recursive: true });
    process.stderr.write(`generating ${path.relative(repoRoot, file)} (${kind}, JevBench words in the vocabulary)\n`);
    // Written aside and renamed into place: bench scripts run side by side, and one must never read a half-written
    // file another is still generating (llama.cpp then fails to load it).
    const partial = `${file}.${process.pid}.partial`;
    writeModel(modelSpec(kind, { extraText: readFileSync(jevbenchFile(), "utf8") }), partial);
    renameSync(partial, file);
  }
  return file;
}

/** A model file named by the user's `--model` (relative to where the command was typed), else the generated one. */
export function benchModelPath(value: string | undefined, kind?: ModelKind): string {
  if (value) return path.resolve(process.env.INIT_CWD ?? process.cwd(), value);
  return benchModel(kind);
}
