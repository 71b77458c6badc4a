import { describe, expect, it } from "vitest";
import { adjustedCapacity, aggregated, stepFor, trackedCapacity } from "./scaling-adjustment.ts";

describe("step scaling arithmetic (Application Auto Scaling API reference)", () => {
  const steps = [
    { MetricIntervalUpperBound: 0, ScalingAdjustment: -1 },
    { MetricIntervalLowerBound: 0, MetricIntervalUpperBound: 10, ScalingAdjustment: 1 },
    { MetricIntervalLowerBound: 10, ScalingAdjustment: 3 },
  ];

  it("picks the step holding the breach: lower bound inclusive at or above the threshold, upper inclusive below", () => {
    expect(stepFor(steps, 0)?.ScalingAdjustment).toBe(1);
    expect(stepFor(steps, 9.9)?.ScalingAdjustment).toBe(1);
    expect(stepFor(steps, 10)?.ScalingAdjustment).toBe(3);
    expect(stepFor(steps, -0.5)?.ScalingAdjustment).toBe(-1);
    expect(stepFor([{ MetricIntervalLowerBound: 0, ScalingAdjustment: 1 }], -1)).toBeUndefined();
  });

  it("applies ChangeInCapacity, ExactCapacity and PercentChangeInCapacity within MinCapacity and MaxCapacity", () => {
    const capacity = { current: 4, min: 0, max: 10 };
    expect(adjustedCapacity({ AdjustmentType: "ChangeInCapacity" }, 3, capacity)).toBe(7);
    expect(adjustedCapacity({ AdjustmentType: "ChangeInCapacity" }, 30, capacity)).toBe(10);
    expect(adjustedCapacity({ AdjustmentType: "ChangeInCapacity" }, -9, capacity)).toBe(0);
    expect(adjustedCapacity({ AdjustmentType: "ExactCapacity" }, 2, capacity)).toBe(2);
    // 4 × 60 % = 2.4, rounded down; 4 × 10 % = 0.4, rounded to 1; 4 × -10 % = -0.4, rounded to -1; -2.4 up to -2.
    expect(adjustedCapacity({ AdjustmentType: "PercentChangeInCapacity" }, 60, capacity)).toBe(6);
    expect(adjustedCapacity({ AdjustmentType: "PercentChangeInCapacity" }, 10, capacity)).toBe(5);
    expect(adjustedCapacity({ AdjustmentType: "PercentChangeInCapacity" }, -10, capacity)).toBe(3);
    expect(adjustedCapacity({ AdjustmentType: "PercentChangeInCapacity" }, -60, capacity)).toBe(2);
    expect(
      adjustedCapacity({ AdjustmentType: "PercentChangeInCapacity", MinAdjustmentMagnitude: 3 }, 10, capacity),
    ).toBe(7);
  });

  it("aggregates the alarm's datapoints as MetricAggregationType says, Average by default", () => {
    expect(aggregated([1, 0, 2], undefined)).toBe(1);
    expect(aggregated([1, 0, 2], "Minimum")).toBe(0);
    expect(aggregated([1, 0, 2], "Maximum")).toBe(2);
  });
});

describe("target tracking arithmetic", () => {
  it("scales proportionally to the metric over the target, in to MinCapacity 0 and never out of 0", () => {
    expect(trackedCapacity(12, 5, { current: 2, min: 0, max: 8 })).toBe(5);
    expect(trackedCapacity(0, 5, { current: 2, min: 0, max: 8 })).toBe(0);
    expect(trackedCapacity(0, 5, { current: 2, min: 1, max: 8 })).toBe(1);
    expect(trackedCapacity(40, 5, { current: 0, min: 0, max: 8 })).toBe(0);
  });
});
