import { describe, expect, it } from "vitest";
import { binomialUpperTail, mcnemarExact, pairedBootstrapP, seededRandom } from "./paired-tests.ts";

describe("McNemar's exact test", () => {
  it("gives statsmodels' exact p-value for 10 pairs against 2 (mcnemar([[0, 10], [2, 0]], exact=True): 0.0385742)", () => {
    const p = mcnemarExact({ worse: 10, better: 2 });
    expect(p.twoSided).toBeCloseTo(158 / 4096, 12);
    expect(p.oneSided).toBeCloseTo(79 / 4096, 12);
  });

  it("gives scipy's binomtest(60, 100) p-value 0.0568879 for 60 pairs against 40", () => {
    expect(mcnemarExact({ worse: 60, better: 40 }).twoSided).toBeCloseTo(0.05688793364098078, 10);
  });

  it("is 1/32 one-sided for five discordant pairs all going the candidate's worse way", () => {
    expect(mcnemarExact({ worse: 5, better: 0 })).toEqual({ oneSided: 1 / 32, twoSided: 1 / 16 });
  });

  it("finds no evidence without discordant pairs, or when they split evenly", () => {
    expect(mcnemarExact({ worse: 0, better: 0 })).toEqual({ oneSided: 1, twoSided: 1 });
    expect(mcnemarExact({ worse: 7, better: 7 }).twoSided).toBe(1);
  });

  it("is near 1 one-sided when the candidate is better", () => {
    expect(mcnemarExact({ worse: 0, better: 8 }).oneSided).toBe(1);
  });

  it("stays finite past 1,074 discordant pairs, where 2^-n underflows", () => {
    const p = binomialUpperTail(1100, 2000);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1e-5);
    expect(binomialUpperTail(1000, 2000) + binomialUpperTail(1001, 2000)).toBeCloseTo(1, 12);
  });
});

describe("the paired bootstrap", () => {
  it("draws the same sequence from the same seed, so a verdict is reproducible", () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    expect(Array.from({ length: 5 }, a)).toEqual(Array.from({ length: 5 }, b));
  });

  it("gives a small p-value when every item is worse on the candidate", () => {
    const p = pairedBootstrapP(50, (indices) => indices.length, { resamples: 999, seed: 1 });
    expect(p).toBe(1 / 1000);
  });

  it("gives p = 1 when no resample shows a degradation", () => {
    expect(pairedBootstrapP(50, () => 0, { resamples: 999, seed: 1 })).toBe(1);
  });

  it("counts a resample where the figure cannot be measured as no degradation", () => {
    expect(pairedBootstrapP(50, () => null, { resamples: 99, seed: 1 })).toBe(1);
  });

  it("gives about one half for a degradation that is pure noise around zero", () => {
    const noise = Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? 1 : -1));
    const mean = (indices: readonly number[]) => indices.reduce((sum, i) => sum + (noise[i] as number), 0);
    const p = pairedBootstrapP(noise.length, mean, { resamples: 2000, seed: 3 });
    expect(p).toBeGreaterThan(0.35);
    expect(p).toBeLessThan(0.65);
  });
});
