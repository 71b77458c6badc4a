export interface LatencySummary {
  count: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  mean: number | null;
  max: number | null;
}

/**
 * Nearest-rank quantile: the smallest sample with at least q of all samples at or below it, i.e.
 * sorted[ceil(q * n) - 1]. It is always an observed latency, never an interpolation.
 */
export function nearestRankQuantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1] as number;
}

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

export interface HistogramBin {
  /** [lower, upper) in milliseconds; the last bin also holds its upper edge. */
  lower: number;
  upper: number;
  count: number;
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
