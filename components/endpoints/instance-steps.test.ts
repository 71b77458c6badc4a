import { describe, expect, it } from "vitest";
import { stepCorners } from "./instance-steps.ts";

describe("stepCorners", () => {
  it("holds each count until the next change and the last until the given time", () => {
    const points = [
      { at: "2026-01-01T00:00:00.000Z", value: 1 },
      { at: "2026-01-01T00:15:00.000Z", value: 0 },
      { at: "2026-01-01T00:20:00.000Z", value: 1 },
    ];
    expect(stepCorners(points, "2026-01-01T01:00:00.000Z")).toEqual([
      { at: "2026-01-01T00:00:00.000Z", value: 1 },
      { at: "2026-01-01T00:15:00.000Z", value: 1 },
      { at: "2026-01-01T00:15:00.000Z", value: 0 },
      { at: "2026-01-01T00:20:00.000Z", value: 0 },
      { at: "2026-01-01T00:20:00.000Z", value: 1 },
      { at: "2026-01-01T01:00:00.000Z", value: 1 },
    ]);
  });

  it("draws nothing for no points", () => {
    expect(stepCorners([], "2026-01-01T01:00:00.000Z")).toEqual([]);
  });
});
