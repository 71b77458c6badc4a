/**
 * Drift of a decision kind against its baseline: the Jensen–Shannon distance between two histograms of counts (the
 * chosen-option mix, and the top probability in the Monitoring view's twentieths).
 */

// Jensen–Shannon over PSI: it is symmetric, bounded in [0, 1] (base 2) and finite when a bin is empty on one side,
// where PSI's ln(p/q) is infinite and needs an arbitrary smoothing constant that then sets the score.

const log2 = (x: number) => Math.log(x) / Math.LN2;

/** Counts as proportions; null when there are none. */
function proportions(counts: readonly number[]): number[] | null {
  const total = counts.reduce((sum, count) => sum + count, 0);
  return total > 0 ? counts.map((count) => count / total) : null;
}

/**
 * The Jensen–Shannon divergence (base 2, in [0, 1]) of two histograms of the same bins, as counts: the mean of
 * KL(P‖M) and KL(Q‖M) with M = (P + Q) / 2. Null when either side has no counts.
 */
export function jensenShannonDivergence(a: readonly number[], b: readonly number[]): number | null {
  if (a.length !== b.length) throw new Error(`histograms of ${a.length} and ${b.length} bins are not comparable`);
  const p = proportions(a);
  const q = proportions(b);
  if (!p || !q) return null;
  let divergence = 0;
  for (let i = 0; i < p.length; i++) {
    const pi = p[i] ?? 0;
    const qi = q[i] ?? 0;
    const mi = (pi + qi) / 2;
    if (pi > 0) divergence += 0.5 * pi * log2(pi / mi);
    if (qi > 0) divergence += 0.5 * qi * log2(qi / mi);
  }
  // Rounding can leave a hair outside [0, 1].
  return Math.min(1, Math.max(0, divergence));
}

/** The Jensen–Shannon distance: the square root of the divergence, a metric on distributions, in [0, 1]. */
export function jensenShannonDistance(a: readonly number[], b: readonly number[]): number | null {
  const divergence = jensenShannonDivergence(a, b);
  return divergence === null ? null : Math.sqrt(divergence);
}

/** Counts per option, in the order of `options`; chosen options outside it are dropped (they are another kind). */
export function optionCounts(options: readonly string[], chosen: ReadonlyMap<string, number>): number[] {
  return options.map((option) => chosen.get(option) ?? 0);
}

/**
 * What the distance between two samples of one distribution comes to by sampling alone: with k bins that have
 * counts, n and m decisions, the divergence (in nats) is about χ²/(8·n·m/(n+m)) with χ² of k - 1 degrees of freedom
 * (the second-order expansion of KL around M; the two-sample χ² statistic). This is the distance at which χ² with
 * k - 1 degrees of freedom is exceeded with probability 0.001 (Wilson–Hilferty's approximation of the quantile), so a
 * drift above it is unlikely to be noise.
 */
export function samplingNoiseDistance(bins: number, baselineDecisions: number, currentDecisions: number): number {
  const df = Math.max(1, bins - 1);
  const z = 3.0902; // the normal distribution's 0.999 quantile
  const chiSquare = df * (1 - 2 / (9 * df) + z * Math.sqrt(2 / (9 * df))) ** 3;
  const effective = (baselineDecisions * currentDecisions) / (baselineDecisions + currentDecisions);
  return Math.sqrt(chiSquare / (8 * effective) / Math.LN2);
}
