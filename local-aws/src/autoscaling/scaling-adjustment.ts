/**
 * Application Auto Scaling's arithmetic for SageMaker variants, as its API reference and user guide define it. Pure
 * functions: the policy actions (policy-actions.ts) feed them the alarm's datapoint and the variant's capacity.
 */

export interface StepAdjustment {
  MetricIntervalLowerBound?: number;
  MetricIntervalUpperBound?: number;
  ScalingAdjustment: number;
}

export type AdjustmentType = "ChangeInCapacity" | "ExactCapacity" | "PercentChangeInCapacity";

export interface StepScalingConfiguration {
  AdjustmentType?: AdjustmentType;
  StepAdjustments?: StepAdjustment[];
  MinAdjustmentMagnitude?: number;
  Cooldown?: number;
  MetricAggregationType?: "Average" | "Minimum" | "Maximum";
}

export interface Capacity {
  current: number;
  min: number;
  max: number;
}

/**
 * The step whose interval holds the breach (metric value − alarm threshold). Bounds are relative to the threshold;
 * a missing lower bound is −∞, a missing upper one +∞. At or above the threshold the lower bound is inclusive and
 * the upper exclusive; below it the lower bound is exclusive and the upper inclusive (StepAdjustment).
 */
export function stepFor(steps: readonly StepAdjustment[], breach: number): StepAdjustment | undefined {
  return steps.find((step) => {
    const lower = step.MetricIntervalLowerBound ?? Number.NEGATIVE_INFINITY;
    const upper = step.MetricIntervalUpperBound ?? Number.POSITIVE_INFINITY;
    return breach >= 0 ? lower <= breach && breach < upper : lower < breach && breach <= upper;
  });
}

/**
 * A PercentChangeInCapacity change in instances: values above 1 round down, between 0 and 1 to 1, between −1 and 0
 * to −1, below −1 up; MinAdjustmentMagnitude is the least it changes by.
 */
function percentChange(current: number, percent: number, minMagnitude: number | undefined): number {
  const raw = (current * percent) / 100;
  const rounded = raw === 0 ? 0 : Math.abs(raw) < 1 ? Math.sign(raw) : Math.trunc(raw);
  if (minMagnitude !== undefined && rounded !== 0 && Math.abs(rounded) < minMagnitude) {
    return Math.sign(rounded) * minMagnitude;
  }
  return rounded;
}

/** The capacity a step adjustment asks for, kept within the target's MinCapacity and MaxCapacity. */
export function adjustedCapacity(
  config: Pick<StepScalingConfiguration, "AdjustmentType" | "MinAdjustmentMagnitude">,
  adjustment: number,
  { current, min, max }: Capacity,
): number {
  const wanted =
    config.AdjustmentType === "ExactCapacity"
      ? adjustment
      : config.AdjustmentType === "PercentChangeInCapacity"
        ? current + percentChange(current, adjustment, config.MinAdjustmentMagnitude)
        : current + adjustment;
  return Math.min(Math.max(wanted, min), max);
}

/** The alarm's datapoints aggregated as the step policy's MetricAggregationType says (Average when unset). */
export function aggregated(values: readonly number[], type: StepScalingConfiguration["MetricAggregationType"]) {
  if (type === "Minimum") return Math.min(...values);
  if (type === "Maximum") return Math.max(...values);
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/**
 * Target tracking's capacity for a metric value: proportional to the metric over the target, rounded up, within
 * the bounds. From 0 instances it stays 0 (the proportion of nothing): a step policy on HasBacklogWithoutCapacity
 * wakes a variant scaled to zero, as SageMaker's guide for asynchronous endpoints says.
 */
export function trackedCapacity(metric: number, target: number, { current, min, max }: Capacity): number {
  const wanted = Math.ceil((current * metric) / target - 1e-9);
  return Math.min(Math.max(wanted, min), max);
}
