import { describe, expect, it } from "vitest";
import { kindFigures, shareText } from "./monitoring-figures.ts";

describe("a decision kind's figures", () => {
  it("give the fallback rate per interval in percent and skip intervals without latency", () => {
    const figures = kindFigures({
      kind: "k",
      question: "Q",
      options: ["a", "b"],
      decisions: 5,
      belowThreshold: 1,
      chosen: [
        { option: "a", decisions: 4 },
        { option: "b", decisions: 1 },
      ],
      topProbability: [{ from: 0.5, to: 0.55, decisions: 5 }],
      latency: { meanMs: 10, p95Ms: 12 },
      sources: { direct: 5, gateway: 0, evaluation: 0 },
      intervals: [
        { at: "2026-12-04T02:00:00.000Z", decisions: 4, belowThreshold: 1, chosen: { a: 3, b: 1 }, latency: null },
        {
          at: "2026-12-04T02:01:00.000Z",
          decisions: 1,
          belowThreshold: 0,
          chosen: { a: 1 },
          latency: { meanMs: 10, p95Ms: 12 },
        },
      ],
    });
    expect(figures.fallbackRate.map((point) => point.value)).toEqual([25, 0]);
    expect(figures.latencyP95).toEqual([{ at: "2026-12-04T02:01:00.000Z", value: 12 }]);
    expect(figures.topProbability).toEqual([{ from: 0.5, to: 0.55, count: 5 }]);
    expect(shareText(1, 4)).toBe("25.0%");
    expect(shareText(0, 0)).toBe("–");
  });
});
