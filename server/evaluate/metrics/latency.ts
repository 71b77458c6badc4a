import { nearestRankQuantile } from "@decision-console/adapter/contract";
import type { HistogramBin, LatencySummary } from "../../../contract/evaluate/metrics.ts";

export function latencySummary(latenciesMs: readonly number[]): LatencySummary {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  const n = sorted.length;
  return {
    count: n,
    p50: nearestRankQuantile(sorted, 0.5),
    p95: nearestRankQuantile(sorted, 0.95),
    p99: nearestRankQuantile(sorted, 0.99),
    mean: n === 0 ? null : sorted.reduce((a, b) => a + b, 0) / n,
    max: n === 0 ? null : (sorted[n - 1] as number),
  };
}

/** Equal-width bins from 0 to the slowest latency. */
export function latencyHistogram(latenciesMs: readonly number[], binCount = 20): HistogramBin[] {
  if (latenciesMs.length === 0) return [];
  const max = Math.max(...latenciesMs);
  const width = max > 0 ? max / binCount : 1;
  const bins = Array.from({ length: binCount }, (_, i) => ({ lower: i * width, upper: (i + 1) * width, count: 0 }));
  for (const latency of latenciesMs) {
    const bin = bins[Math.min(binCount - 1, Math.floor(latency / width))] as HistogramBin;
    bin.count += 1;
  }
  return bins;
}
