import { quantileOf } from "../src/contract/quantile.ts";
import type { Engine } from "../src/engine/engine.ts";
import type { JevBenchRow } from "./bench-files.ts";

/**
 * One part of `npm run bench:adapter`. Every `sections/*.section.ts` file default-exports a BenchSection; they run
 * in `order` against one adapter, each adds rows to the printed table and keys to the final JSON line.
 */
export type BenchSection = {
  name: string;
  order: number;
  run(context: BenchContext): Promise<SectionResult>;
};

export type SectionResult = {
  rows: Array<Record<string, string | number>>;
  summary: Record<string, string | number | null>;
};

export type { JevBenchRow } from "./bench-files.ts";

export type BenchContext = {
  url: string;
  engine: Engine;
  /** POST /invocations, timed end to end (client side). */
  invoke(body: unknown): Promise<{ status: number; body: unknown; ms: number }>;
  /** Empties every sequence and the reading cache, so the next request evaluates its whole prompt. */
  coldStart(): Promise<void>;
  /** The JevBench decisions of this run: a stratified sample, or all 231 with --full. */
  jevbench: JevBenchRow[];
  repeats: number;
};

export function percentile(values: readonly number[], fraction: number): number {
  return quantileOf(values, fraction) ?? Number.NaN;
}

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
