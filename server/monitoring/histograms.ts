import { TOP_PROBABILITY_BINS } from "../../contract/endpoints/monitoring.ts";

/**
 * The bin of a top probability: the hundredth `k` with k/100 <= p < (k+1)/100 as JavaScript compares them, so the
 * decisions below a threshold of t = k/100 are exactly those in bins 0 to k-1. A probability of 1 is in the last bin.
 */
export function topProbabilityBin(p: number): number {
  let bin = Math.floor(p * TOP_PROBABILITY_BINS);
  if (bin / TOP_PROBABILITY_BINS > p) bin--;
  if ((bin + 1) / TOP_PROBABILITY_BINS <= p) bin++;
  return Math.min(TOP_PROBABILITY_BINS - 1, Math.max(0, bin));
}

/** Latencies in quarter-octave bins from 0.25 ms: bin i holds [0.25·2^(i/4), 0.25·2^((i+1)/4)) ms, up to ~4.6 h. */
export const LATENCY_BINS = 96;
const LATENCY_FLOOR_MS = 0.25;

export function latencyBin(ms: number): number {
  if (!(ms > LATENCY_FLOOR_MS)) return 0;
  return Math.min(LATENCY_BINS - 1, Math.floor(4 * Math.log2(ms / LATENCY_FLOOR_MS)));
}

export const latencyBinUpperMs = (bin: number) => LATENCY_FLOOR_MS * 2 ** ((bin + 1) / 4);

export const emptyBins = (count: number) => new Array<number>(count).fill(0);

export function addBins(into: number[], from: readonly number[]) {
  for (let i = 0; i < into.length; i++) into[i] = (into[i] ?? 0) + (from[i] ?? 0);
}

/** The nearest-rank quantile `q` of binned latencies, as its bin's upper edge (an overestimate by under 19%). */
export function binnedQuantileMs(bins: readonly number[], q: number): number | null {
  const total = bins.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (let i = 0; i < bins.length; i++) {
    seen += bins[i] ?? 0;
    if (seen >= rank) return latencyBinUpperMs(i);
  }
  return latencyBinUpperMs(bins.length - 1);
}
