/**
 * Paired significance tests for the CI gate: both sides scored the same items, so each item is its own control and
 * only the items where the two sides differ carry evidence. Every p-value here is one-sided, for "the candidate is
 * worse", since the gate fails a build only on a regression.
 */

/** ln C(n, k), built up term by term so n in the tens of thousands stays exact enough and never overflows. */
function logChoose(n: number, k: number): number {
  let sum = 0;
  for (let i = 1; i <= k; i++) sum += Math.log(n - k + i) - Math.log(i);
  return sum;
}

/** P(X >= k) for X ~ Binomial(n, 1/2), summed in log space (2^-n underflows past n = 1074). */
export function binomialUpperTail(k: number, n: number): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  const logs: number[] = [];
  let logC = logChoose(n, k);
  for (let i = k; i <= n; i++) {
    logs.push(logC - n * Math.LN2);
    logC += Math.log(n - i) - Math.log(i + 1);
  }
  const top = Math.max(...logs);
  return Math.min(1, Math.exp(top) * logs.reduce((sum, log) => sum + Math.exp(log - top), 0));
}

/** The discordant pairs of a paired binary outcome: items only the baseline got "good", and only the candidate. */
export interface Discordant {
  /** Good on the baseline, bad on the candidate (e.g. right, then wrong). */
  worse: number;
  /** Bad on the baseline, good on the candidate. */
  better: number;
}

/**
 * McNemar's exact test: under "no difference" each discordant pair is equally likely to go either way, so `worse`
 * is Binomial(worse + better, 1/2). The exact sign test on paired indicators is the same computation.
 */
export function mcnemarExact({ worse, better }: Discordant): { oneSided: number; twoSided: number } {
  const n = worse + better;
  const oneSided = binomialUpperTail(worse, n);
  const extreme = Math.max(worse, better);
  const twoSided = n === 0 || worse === better ? 1 : Math.min(1, 2 * binomialUpperTail(extreme, n));
  return { oneSided, twoSided };
}

/** mulberry32: a small seeded generator, so a gate run on the same results gives the same bootstrap verdict. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface BootstrapOptions {
  resamples: number;
  seed: number;
}

/**
 * Paired bootstrap of a degradation (positive = the candidate is worse): items are resampled with replacement, the
 * same indices for both sides, and `degradation(indices)` recomputed on each resample. The one-sided p-value is the
 * share of resamples that show no degradation (<= 0), counting the observed sample as one of them
 * ((1 + count) / (1 + resamples)) so it is never 0. Resamples where the statistic is undefined (null: no item
 * above a threshold) count as showing none, which can only make the gate more lenient.
 */
export function pairedBootstrapP(
  itemCount: number,
  degradation: (indices: readonly number[]) => number | null,
  { resamples, seed }: BootstrapOptions,
): number {
  const random = seededRandom(seed);
  const indices = new Array<number>(itemCount);
  let noWorse = 0;
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < itemCount; i++) indices[i] = Math.floor(random() * itemCount);
    const value = degradation(indices);
    if (value === null || value <= 0) noWorse += 1;
  }
  return (1 + noWorse) / (1 + resamples);
}
