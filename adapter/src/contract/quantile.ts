/**
 * Nearest-rank quantile of samples sorted ascending: the smallest sample with at least q of all samples at or
 * below it, sorted[ceil(q * n) - 1]. Always an observed value, never an interpolation; null when there are none.
 * The one rank rule of every latency figure the project reports (adapter bench, console evaluations, local
 * CloudWatch percentiles, load and performance scripts).
 */
export function nearestRankQuantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1] as number;
}

/** The nearest-rank quantile of samples in any order. */
export function quantileOf(values: readonly number[], q: number): number | null {
  return nearestRankQuantile(
    [...values].sort((a, b) => a - b),
    q,
  );
}
