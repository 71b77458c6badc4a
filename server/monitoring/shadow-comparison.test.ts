import { describe, expect, it } from "vitest";
import type { StoredDecision } from "./monitoring-store.ts";
import { compareShadow, PAIR_WITHIN_MS, pairDecisions } from "./shadow-comparison.ts";

const decision = (atMs: number, inputKey: string, chosen: string, probabilities: number[]): StoredDecision => ({
  atMs,
  kind: "k",
  inputKey,
  item: 0,
  chosen,
  topProbability: Math.max(...probabilities),
  probabilities,
  latencyMs: 10,
});

describe("pairing production and shadow decisions", () => {
  it("pairs a request sent three times one to one, in order, and not past the pairing time", () => {
    const production = [0, 1000, 2000].map((at) => decision(at, "same", "a", [0.8, 0.2]));
    const shadow = [50, 1050, 2000 + PAIR_WITHIN_MS + 51].map((at) => decision(at, "same", "a", [0.6, 0.4]));
    const pairs = pairDecisions(production, shadow);
    expect(pairs.map((pair) => [pair.production.atMs, pair.shadow.atMs])).toEqual([
      [0, 50],
      [1000, 1050],
    ]);
  });

  it("measures agreement and the difference on production's chosen option", () => {
    const production = [decision(0, "x", "a", [0.8, 0.2]), decision(0, "y", "b", [0.3, 0.7])];
    const shadow = [decision(5, "x", "a", [0.6, 0.4]), decision(5, "y", "a", [0.6, 0.4])];
    const comparison = compareShadow({ production: "AllTraffic", shadow: "Shadow" }, production, shadow, () => [
      "a",
      "b",
    ]);
    expect(comparison.pairs).toBe(2);
    expect(comparison.agreement).toBe(0.5);
    // |0.8 - 0.6| and |0.7 - 0.4|
    expect(comparison.meanProbabilityDifference).toBeCloseTo(0.25, 12);
  });
});
