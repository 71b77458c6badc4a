import { describe, expect, it } from "vitest";
import { averageOrders, rotate, rotationOffsets } from "../src/engine/debias.ts";
import { optionCodes } from "../src/engine/multi-token.ts";

describe("cyclic option orders", () => {
  it("spreads n rotations evenly and never repeats one", () => {
    expect(rotationOffsets(4, 1)).toEqual([0]);
    expect(rotationOffsets(4, 2)).toEqual([0, 2]);
    expect(rotationOffsets(4, 4)).toEqual([0, 1, 2, 3]);
    expect(rotationOffsets(3, 10)).toEqual([0, 1, 2]);
  });

  it("rotates a list so that it starts at the offset", () => {
    expect(rotate(["a", "b", "c", "d"], 1)).toEqual(["b", "c", "d", "a"]);
    expect(rotate(["a", "b", "c"], 0)).toEqual(["a", "b", "c"]);
  });

  it("maps each order's positional probabilities back to the options before averaging", () => {
    // Options a, b, c. Order 0 shows a b c; order 1 shows b c a.
    const perOrder = [
      [0.6, 0.3, 0.1],
      [0.5, 0.2, 0.3],
    ];
    const { probabilities, spread } = averageOrders(perOrder, [0, 1]);
    expect(probabilities[0]).toBeCloseTo((0.6 + 0.3) / 2, 12); // a: position 0, then position 2
    expect(probabilities[1]).toBeCloseTo((0.3 + 0.5) / 2, 12); // b: position 1, then position 0
    expect(probabilities[2]).toBeCloseTo((0.1 + 0.2) / 2, 12); // c: position 2, then position 1
    expect(spread[0]).toBeCloseTo(0.3, 12);
    expect(probabilities.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it("cancels a purely positional preference exactly when every option visits every position", () => {
    const positional = [0.7, 0.2, 0.1];
    const offsets = rotationOffsets(3, 3);
    const { probabilities } = averageOrders(
      offsets.map(() => positional),
      offsets,
    );
    for (const p of probabilities) expect(p).toBeCloseTo(1 / 3, 12);
  });
});

describe("option codes", () => {
  it("uses single letters up to 26 options", () => {
    expect(optionCodes(3)).toEqual(["A", "B", "C"]);
    expect(optionCodes(26).at(-1)).toBe("Z");
  });

  it("uses distinct two-letter codes of equal length beyond 26, up to 255 and more", () => {
    const codes = optionCodes(255);
    expect(codes.slice(0, 3)).toEqual(["AA", "AB", "AC"]);
    expect(new Set(codes).size).toBe(255);
    expect(codes.every((code) => code.length === 2)).toBe(true);
  });
});
