import { describe, expect, it } from "vitest";
import { jensenShannonDistance, jensenShannonDivergence, optionCounts, samplingNoiseDistance } from "./drift-score.ts";

describe("Jensen–Shannon drift", () => {
  it("is 0 for the same mix at any scale and 1 for mixes with no option in common", () => {
    expect(jensenShannonDistance([3, 1, 0], [3, 1, 0])).toBe(0);
    expect(jensenShannonDistance([3, 1, 0], [300, 100, 0])).toBeCloseTo(0, 12);
    expect(jensenShannonDistance([1, 0], [0, 1])).toBe(1);
    expect(jensenShannonDistance([5, 5, 0, 0], [0, 0, 2, 7])).toBe(1);
  });

  it("matches a hand computation, is symmetric, and stays finite with an empty bin", () => {
    // P = (1, 0), Q = (1/2, 1/2), M = (3/4, 1/4):
    // KL(P‖M) = log2(4/3) = 0.4150375; KL(Q‖M) = ½·log2(2/3) + ½·log2(2) = 0.2075187;
    // JS = ½·(0.4150375 + 0.2075187) = 0.3112781; distance = √0.3112781 = 0.5579230.
    expect(jensenShannonDivergence([1, 0], [1, 1])).toBeCloseTo(0.3112781, 6);
    expect(jensenShannonDistance([1, 0], [1, 1])).toBeCloseTo(0.557923, 6);
    expect(jensenShannonDistance([1, 1], [1, 0])).toBeCloseTo(0.557923, 6);
    // P = (0.5, 0.5, 0), Q = (0.25, 0.25, 0.5), M = (0.375, 0.375, 0.25):
    // KL(P‖M) = log2(0.5/0.375) = 0.4150375; KL(Q‖M) = 0.5·log2(0.25/0.375) + 0.5·log2(0.5/0.25) = 0.2075187;
    // the same JS, 0.3112781.
    expect(jensenShannonDivergence([2, 2, 0], [1, 1, 2])).toBeCloseTo(0.3112781, 6);
  });

  it("has no value without decisions on a side, and refuses histograms of different bins", () => {
    expect(jensenShannonDistance([0, 0], [1, 2])).toBeNull();
    expect(jensenShannonDistance([1, 2], [0, 0])).toBeNull();
    expect(() => jensenShannonDistance([1, 2], [1, 2, 3])).toThrow(/not comparable/);
  });

  it("counts options in the kind's order, dropping options of another kind", () => {
    expect(
      optionCounts(
        ["a", "b", "c"],
        new Map([
          ["c", 2],
          ["a", 1],
          ["z", 9],
        ]),
      ),
    ).toEqual([1, 0, 2]);
  });

  it("puts the sampling noise where χ² at 0.999 puts it", () => {
    // χ²(2) at 0.999 is 13.8155 (Wilson–Hilferty: 14.13); 200 and 200 decisions: n_eff = 100,
    // distance = √(14.13 / (8·100) / ln 2) = 0.1596.
    expect(samplingNoiseDistance(3, 200, 200)).toBeCloseTo(0.1596, 3);
    // χ²(19) at 0.999 is 43.82 (Wilson–Hilferty: 43.95); n_eff = 100: √(43.95 / 800 / ln 2) = 0.2815.
    expect(samplingNoiseDistance(20, 200, 200)).toBeCloseTo(0.2815, 3);
    // Four times the decisions halve it.
    expect(samplingNoiseDistance(3, 800, 800) / samplingNoiseDistance(3, 200, 200)).toBeCloseTo(0.5, 6);
  });

  it("is exceeded about once in a thousand by two samples of one distribution (seeded simulation)", () => {
    // The drift model test's population: options 50/30/20, top probability uniform on [0.55, 0.95); 600 baseline
    // decisions against 300. 4000 pairs, a fixed seed (Park–Miller), so the counts are the same on every run.
    let state = 1;
    const next = () => {
      state = (state * 16807) % 2147483647;
      return state / 2147483647;
    };
    const sample = (n: number) => {
      const options = [0, 0, 0];
      const bins = new Array<number>(20).fill(0);
      for (let i = 0; i < n; i++) {
        const u = next();
        const option = u < 0.5 ? 0 : u < 0.8 ? 1 : 2;
        options[option] = (options[option] ?? 0) + 1;
        const bin = Math.floor((0.55 + 0.4 * next()) * 20);
        bins[bin] = (bins[bin] ?? 0) + 1;
      }
      return { options, bins };
    };
    const used = (a: number[], b: number[]) => a.filter((count, i) => count + (b[i] ?? 0) > 0).length;
    const trials = 4000;
    let over = 0;
    let overTwenty = 0;
    const twenty = samplingNoiseDistance(20, 600, 300);
    for (let t = 0; t < trials; t++) {
      const a = sample(600);
      const b = sample(300);
      for (const [x, y] of [
        [a.options, b.options],
        [a.bins, b.bins],
      ] as const) {
        const distance = jensenShannonDistance(x, y) ?? 0;
        if (distance > samplingNoiseDistance(used(x, y), 600, 300)) over++;
        if (distance > twenty) overTwenty++;
      }
    }
    // 2 × 4000 distances at a nominal 0.001: 8 expected; a poisson 99.9% bound is 18.
    expect(over).toBeGreaterThan(0);
    expect(over).toBeLessThanOrEqual(18);
    expect(overTwenty).toBe(0);
  });
});
