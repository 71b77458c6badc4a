import { describe, expect, it } from "vitest";
import { binnedQuantileMs, LATENCY_BINS, latencyBin, latencyBinUpperMs, topProbabilityBin } from "./histograms.ts";

describe("top-probability bins", () => {
  it("put exactly the decisions below k/100 in bins 0 to k-1, for every k", () => {
    const probabilities = [
      0,
      0.29,
      0.3,
      0.5,
      0.57,
      0.58,
      0.999,
      1,
      ...Array.from({ length: 2000 }, (_, i) => i / 1999),
    ];
    for (let k = 1; k < 100; k++) {
      const threshold = Number(`0.${String(k).padStart(2, "0")}`);
      const below = probabilities.filter((p) => p < threshold).length;
      expect(probabilities.filter((p) => topProbabilityBin(p) < k).length, `threshold ${threshold}`).toBe(below);
    }
  });
});

describe("latency bins", () => {
  it("keep a latency within its bin's edges", () => {
    for (const ms of [0.3, 1, 7.5, 120, 4_000, 60_000]) {
      const bin = latencyBin(ms);
      expect(latencyBinUpperMs(bin)).toBeGreaterThan(ms);
      expect(latencyBinUpperMs(bin) / ms).toBeLessThan(2 ** 0.25 + 1e-9);
    }
  });

  it("give the nearest-rank p95 as its bin's upper edge", () => {
    const bins = new Array<number>(LATENCY_BINS).fill(0);
    for (let i = 1; i <= 100; i++) bins[latencyBin(i)] = (bins[latencyBin(i)] ?? 0) + 1;
    const p95 = binnedQuantileMs(bins, 0.95) ?? 0;
    expect(p95).toBeGreaterThanOrEqual(95);
    expect(p95 / 95).toBeLessThan(2 ** 0.25);
    expect(binnedQuantileMs(new Array<number>(LATENCY_BINS).fill(0), 0.95)).toBeNull();
  });
});
