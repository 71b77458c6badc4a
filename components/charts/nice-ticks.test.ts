import { describe, expect, it } from "vitest";
import { niceTicks } from "./nice-ticks.ts";

describe("niceTicks", () => {
  it("steps by 1, 2 or 5 times a power of ten, up to the maximum", () => {
    // The 231-item JevBench run on SmolLM2: latencies to 59.247 s, bins to 118 requests.
    expect(niceTicks(59_247)).toEqual([0, 20_000, 40_000]);
    expect(niceTicks(118)).toEqual([0, 50, 100]);
    expect(niceTicks(1852)).toEqual([0, 500, 1000, 1500]);
    expect(niceTicks(1)).toEqual([0, 0.5, 1]);
    expect(niceTicks(0.9)).toEqual([0, 0.2, 0.4, 0.6, 0.8]);
    expect(niceTicks(3)).toEqual([0, 1, 2, 3]);
    expect(niceTicks(7, 2)).toEqual([0, 5]);
  });

  it("gives only 0 for an empty or broken axis", () => {
    expect(niceTicks(0)).toEqual([0]);
    expect(niceTicks(Number.NaN)).toEqual([0]);
  });
});
