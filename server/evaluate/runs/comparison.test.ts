import { describe, expect, it } from "vitest";
import type { DecisionOutcome } from "../metrics/outcome.ts";
import { evaluationMetrics } from "../metrics/summary.ts";
import { compare } from "./comparison.ts";

const outcome = (itemId: string, answer: string, probabilities: number[] | null, latencyMs = 100): DecisionOutcome => ({
  itemId,
  optionIds: ["no", "yes"],
  answer,
  probabilities,
  latencyMs,
  errorKind: probabilities ? null : "busy",
});

function side(label: string, outcomes: DecisionOutcome[]) {
  return { label, endpointName: label, metrics: evaluationMetrics(outcomes), outcomes };
}

describe("side-by-side comparison", () => {
  const cpu = side("cpu", [
    outcome("a", "no", [0.9, 0.1], 1715),
    outcome("b", "yes", [0.6, 0.4], 1800),
    outcome("c", "yes", [0.2, 0.8], 19291),
    outcome("d", "no", [0.7, 0.3]),
  ]);
  const gpu = side("gpu", [
    outcome("a", "no", [0.8, 0.2], 352),
    outcome("b", "yes", [0.3, 0.7], 599),
    outcome("c", "yes", null),
  ]);

  it("lists correct of answered, failed items apart, p50, p95 and calibration per side", () => {
    const { rows } = compare(cpu, gpu);
    expect(rows.map((row) => [row.label, row.correct, row.answered, row.failed, row.p50Ms, row.p95Ms])).toEqual([
      ["cpu", 3, 4, 0, 1715, 19291],
      ["gpu", 2, 2, 1, 352, 599],
    ]);
    expect(rows[0]?.brier).toBeCloseTo((0.02 + 0.72 + 0.08 + 0.18) / 4, 12);
  });

  it("finds the items whose chosen options differ, a failed side included, over items both finished", () => {
    const comparison = compare(cpu, gpu);
    expect(comparison.compared).toBe(3);
    expect(comparison.disagreements).toEqual([
      { itemId: "b", answer: "yes", chosen: ["no", "yes"], confidence: [0.6, 0.7] },
      { itemId: "c", answer: "yes", chosen: ["yes", null], confidence: [0.8, null] },
    ]);
  });
});
