import { describe, expect, it } from "vitest";
import { evaluatedCostPerThousand, instanceHours, servedCostPerThousand } from "./cost-per-decision.ts";

describe("cost per 1,000 decisions served", () => {
  it("divides the instance-hours' price by the decisions: 24 instance-hours at $0.408 for 48,000 decisions is $0.204", () => {
    const cost = servedCostPerThousand({ instanceHourPriceUsd: 0.408, instanceHours: 24, decisions: 48_000 });
    expect(cost).toBeCloseTo(0.204, 12);
  });

  it("has no figure without decisions, instance-hours or a known price", () => {
    expect(servedCostPerThousand({ instanceHourPriceUsd: 0.408, instanceHours: 24, decisions: 0 })).toBeNull();
    expect(servedCostPerThousand({ instanceHourPriceUsd: 0.408, instanceHours: 0, decisions: 10 })).toBeNull();
    expect(servedCostPerThousand({ instanceHourPriceUsd: null, instanceHours: 24, decisions: 10 })).toBeNull();
  });
});

describe("instance-hours of a step series of instance counts", () => {
  it("holds each count until the next point: 1 instance for 2 h, then 3 for 1 h, is 5 instance-hours", () => {
    const points = [
      { at: "2026-12-01T10:00:00.000Z", value: 1 },
      { at: "2026-12-01T12:00:00.000Z", value: 3 },
    ];
    expect(instanceHours(points, "2026-12-01T10:00:00.000Z", "2026-12-01T13:00:00.000Z")).toBe(5);
  });

  it("counts only the window, and nothing while scaled to zero", () => {
    const points = [
      { at: "2026-12-01T08:00:00.000Z", value: 2 },
      { at: "2026-12-01T11:00:00.000Z", value: 0 },
    ];
    expect(instanceHours(points, "2026-12-01T10:00:00.000Z", "2026-12-01T13:00:00.000Z")).toBe(2);
  });
});

describe("cost per 1,000 decisions from an evaluation", () => {
  it("serially at the AWS post's L40S p50 (0.352 s) on ml.g6e.xlarge ($2.336/h): $0.2284", () => {
    // 3,600 s / 0.352 s = 10,227 decisions an hour; $2.336 / 10,227 * 1,000.
    const cost = evaluatedCostPerThousand({ hourlyPriceUsd: 2.336, meanLatencyMs: 352, concurrency: 1 });
    expect(cost).toBeCloseTo((2.336 * 0.352 * 1000) / 3600, 12);
    expect(cost).toBeCloseTo(0.22841, 5);
  });

  it("halves with two requests in flight at the same latency", () => {
    const one = evaluatedCostPerThousand({ hourlyPriceUsd: 1.632, meanLatencyMs: 1715, concurrency: 1 }) as number;
    const two = evaluatedCostPerThousand({ hourlyPriceUsd: 1.632, meanLatencyMs: 1715, concurrency: 2 }) as number;
    expect(two).toBeCloseTo(one / 2, 12);
  });

  it("has no figure without a latency or a known price", () => {
    expect(evaluatedCostPerThousand({ hourlyPriceUsd: 1, meanLatencyMs: null, concurrency: 1 })).toBeNull();
    expect(evaluatedCostPerThousand({ hourlyPriceUsd: null, meanLatencyMs: 100, concurrency: 1 })).toBeNull();
  });
});
