import type { CapacitySize, DeploymentConfig } from "@aws-sdk/client-sagemaker";

/**
 * Local SageMaker's reading of how UpdateEndpoint deploys, from the developer guide's "Deployment guardrails"
 * chapter and the API reference's DeploymentConfig, written apart from the console's preview of the same schedule
 * (tests/integration/deployment-readings.test.ts holds the two readings against each other):
 *
 * - Blue/green, all at once: "shifts all of your traffic from the old fleet to the new fleet", then a baking period.
 * - Blue/green, canary: "a small portion of your traffic (a canary)" moves and bakes; "if the canary succeeds",
 *   the rest moves, and a final baking period follows.
 * - Blue/green, linear: traffic moves "in a fixed number of steps", each followed by a baking period.
 * - Rolling: the new fleet is provisioned "in batches" of MaximumBatchSize; each batch takes its share of traffic
 *   and bakes before the old instances it replaces are terminated.
 * - Without a DeploymentConfig all traffic moves at once, with no baking period.
 *
 * TerminationWaitInSeconds (blue/green) is the wait before the old fleet is terminated. A rollback brings the old
 * fleet back all at once, or in batches of RollbackMaximumBatchSize for a rolling deployment that names one.
 */

/** One traffic shift: after it, `newInstances` of `total` serve `newFleetShare` of traffic; then it bakes. */
export interface TrafficShift {
  kind: "canary" | "linear" | "all" | "batch";
  newInstances: number;
  newFleetShare: number;
  bakeSeconds: number;
}

export interface DeploymentSchedule {
  strategy: "blue-green" | "rolling";
  shifts: TrafficShift[];
  terminationWaitSeconds: number;
  rollbackBatchInstances: number;
}

/**
 * The instances a CapacitySize names in a fleet of `total`. A percentage is of "the variant's total instance
 * count", taken as whole instances that do not exceed it.
 */
export function instancesNamed(size: CapacitySize, total: number): number {
  const value = size.Value ?? 0;
  return size.Type === "CAPACITY_PERCENT" ? Math.floor((value / 100) * total) : value;
}

/** Shifts of `step` instances each until the whole fleet of `total` serves: the last one may be smaller. */
function inSteps(kind: TrafficShift["kind"], step: number, total: number, bakeSeconds: number): TrafficShift[] {
  const shifts: TrafficShift[] = [];
  let serving = 0;
  while (serving < total) {
    serving = Math.min(total, serving + Math.max(1, step));
    shifts.push({ kind, newInstances: serving, newFleetShare: serving / total, bakeSeconds });
  }
  return shifts;
}

export function deploymentSchedule(config: DeploymentConfig | undefined, fleet: number): DeploymentSchedule {
  const total = Math.max(1, fleet);
  const rolling = config?.RollingUpdatePolicy;
  if (rolling?.MaximumBatchSize) {
    const rollback = rolling.RollbackMaximumBatchSize;
    return {
      strategy: "rolling",
      shifts: inSteps(
        "batch",
        instancesNamed(rolling.MaximumBatchSize, total),
        total,
        rolling.WaitIntervalInSeconds ?? 0,
      ),
      terminationWaitSeconds: 0,
      rollbackBatchInstances: rollback ? Math.max(1, instancesNamed(rollback, total)) : total,
    };
  }
  const blueGreen = config?.BlueGreenUpdatePolicy;
  const routing = blueGreen?.TrafficRoutingConfiguration;
  const bake = routing?.WaitIntervalInSeconds ?? 0;
  const all: TrafficShift = { kind: "all", newInstances: total, newFleetShare: 1, bakeSeconds: bake };
  let shifts: TrafficShift[] = [all];
  if (routing?.Type === "CANARY" && routing.CanarySize) {
    const canary = Math.min(total, instancesNamed(routing.CanarySize, total));
    shifts = [{ kind: "canary", newInstances: canary, newFleetShare: canary / total, bakeSeconds: bake }, all];
  } else if (routing?.Type === "LINEAR" && routing.LinearStepSize) {
    shifts = inSteps("linear", instancesNamed(routing.LinearStepSize, total), total, bake);
  }
  return {
    strategy: "blue-green",
    shifts,
    terminationWaitSeconds: blueGreen?.TerminationWaitInSeconds ?? 0,
    rollbackBatchInstances: total,
  };
}
