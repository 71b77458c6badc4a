/**
 * SageMaker's deployment schedule for UpdateEndpoint, as its developer guide describes blue/green (all at once,
 * canary, linear) and rolling deployments, computed once for everyone who needs it: local mode runs it, the console
 * previews it in the review and lays progress over it. The types are the SDK's DeploymentConfig members, as plain
 * data. The capacity rules (how an instance count or a percentage becomes instances, and the share of the fleet
 * each strategy allows per step) are the API reference's, in `capacityRules` and `instancesOf`.
 */

export type CapacitySizeType = "INSTANCE_COUNT" | "CAPACITY_PERCENT";
export interface CapacitySize {
  Type: CapacitySizeType;
  Value: number;
}

export type TrafficRoutingType = "ALL_AT_ONCE" | "CANARY" | "LINEAR";
export interface TrafficRoutingConfig {
  Type: TrafficRoutingType;
  WaitIntervalInSeconds: number;
  CanarySize?: CapacitySize;
  LinearStepSize?: CapacitySize;
}

export interface BlueGreenUpdatePolicy {
  TrafficRoutingConfiguration: TrafficRoutingConfig;
  TerminationWaitInSeconds?: number;
  MaximumExecutionTimeoutInSeconds?: number;
}

export interface RollingUpdatePolicy {
  MaximumBatchSize: CapacitySize;
  WaitIntervalInSeconds: number;
  MaximumExecutionTimeoutInSeconds?: number;
  RollbackMaximumBatchSize?: CapacitySize;
}

export interface DeploymentConfig {
  BlueGreenUpdatePolicy?: BlueGreenUpdatePolicy;
  RollingUpdatePolicy?: RollingUpdatePolicy;
  AutoRollbackConfiguration?: { Alarms?: { AlarmName?: string }[] };
}

/** Each step's size as a share of the variant's total instance count, per the API reference. */
export const capacityRules = {
  /** CanarySize: at most 50%. */
  canary: { min: 0, max: 0.5, field: "CanarySize", wording: "less than or equal to 50%" },
  /** LinearStepSize: 10-50%. */
  linear: { min: 0.1, max: 0.5, field: "LinearStepSize", wording: "between 10% and 50%" },
  /** RollingUpdatePolicy.MaximumBatchSize: 5-50%. */
  rolling: { min: 0.05, max: 0.5, field: "MaximumBatchSize", wording: "between 5% and 50%" },
} as const;
export type CapacityRule = keyof typeof capacityRules;

/**
 * The instances a capacity size names out of `total`: INSTANCE_COUNT its value, CAPACITY_PERCENT the whole instances
 * that percentage of the fleet holds (rounded down, so a step never exceeds the share it names).
 */
export function instancesOf(size: CapacitySize, total: number): number {
  return size.Type === "INSTANCE_COUNT" ? size.Value : Math.floor((total * size.Value) / 100);
}

/** Why a capacity size breaks its strategy's rule for a fleet of `total` instances, or null when it fits. */
export function capacityProblem(rule: CapacityRule, size: CapacitySize, total: number): string | null {
  const { min, max, field, wording } = capacityRules[rule];
  const share = size.Type === "CAPACITY_PERCENT" ? size.Value / 100 : size.Value / total;
  const named =
    size.Type === "CAPACITY_PERCENT" ? `${size.Value}%` : `${size.Value} instance${size.Value === 1 ? "" : "s"}`;
  if (share > max + 1e-9 || share < min - 1e-9) {
    return `${field} (${named}) must be ${wording} of the variant's total instance count (${total}).`;
  }
  if (instancesOf(size, total) < 1) {
    return `${field} (${named}) of the variant's total instance count (${total}) is less than one instance.`;
  }
  return null;
}

/** Why a RollbackMaximumBatchSize cannot serve a fleet of `total` instances, or null when it fits. */
export function rollbackBatchProblem(size: CapacitySize, total: number): string | null {
  const tooLarge = size.Type === "CAPACITY_PERCENT" ? size.Value > 100 : size.Value > total;
  return tooLarge ? `RollbackMaximumBatchSize must not exceed the variant's total instance count (${total}).` : null;
}

export interface PlanStep {
  /** `canary`, a `linear` step, `all` traffic at once, a rolling `batch`. */
  kind: "canary" | "linear" | "all" | "batch";
  /** Instances of the new fleet that take traffic after this step. */
  newInstances: number;
  /** Share of traffic on the new fleet after this step (0..1). */
  newFleetShare: number;
  /** The baking period that follows the step, during which the rollback alarms are watched. */
  bakeSeconds: number;
}

export interface DeploymentPlan {
  strategy: "blue-green" | "rolling";
  routing: TrafficRoutingType | null;
  totalInstances: number;
  steps: PlanStep[];
  /** Wait after the last bake before the old fleet is terminated (blue/green). */
  terminationWaitSeconds: number;
  /** Null: no limit given. */
  maximumExecutionTimeoutSeconds: number | null;
  /** Instances brought back per step when a rolling deployment rolls back (all at once for blue/green). */
  rollbackBatchInstances: number;
  /** Baking and waiting time of the plan, provisioning aside. */
  waitSeconds: number;
}

/**
 * The steps of a deployment to a variant of `totalInstances`. Without a DeploymentConfig SageMaker shifts all
 * traffic at once with no baking period. Blue/green: all at once, then a final baking period; canary: the canary
 * bakes, then all traffic moves and the final baking period follows; linear: each step bakes, the last one (all
 * traffic) included. Rolling: each batch of new instances takes its share of traffic and bakes. Sizes are assumed
 * valid (capacityProblem).
 */
export function deploymentPlan(config: DeploymentConfig | undefined, totalInstances: number): DeploymentPlan {
  const total = Math.max(1, totalInstances);
  const step = (kind: PlanStep["kind"], instances: number, bakeSeconds: number): PlanStep => {
    const newInstances = Math.min(total, instances);
    return { kind, newInstances, newFleetShare: newInstances / total, bakeSeconds };
  };
  const finish = (plan: Omit<DeploymentPlan, "waitSeconds" | "totalInstances">): DeploymentPlan => ({
    ...plan,
    totalInstances: total,
    waitSeconds: plan.steps.reduce((sum, s) => sum + s.bakeSeconds, 0) + plan.terminationWaitSeconds,
  });
  const rolling = config?.RollingUpdatePolicy;
  if (rolling) {
    const batch = Math.max(1, instancesOf(rolling.MaximumBatchSize, total));
    const steps: PlanStep[] = [];
    for (let up = batch; up < total + batch; up += batch) {
      steps.push(step("batch", up, rolling.WaitIntervalInSeconds));
    }
    return finish({
      strategy: "rolling",
      routing: null,
      steps,
      terminationWaitSeconds: 0,
      maximumExecutionTimeoutSeconds: rolling.MaximumExecutionTimeoutInSeconds ?? null,
      rollbackBatchInstances: rolling.RollbackMaximumBatchSize
        ? Math.max(1, instancesOf(rolling.RollbackMaximumBatchSize, total))
        : total,
    });
  }
  const blueGreen = config?.BlueGreenUpdatePolicy;
  const routing = blueGreen?.TrafficRoutingConfiguration;
  const wait = routing?.WaitIntervalInSeconds ?? 0;
  let steps: PlanStep[];
  if (routing?.Type === "CANARY" && routing.CanarySize) {
    steps = [step("canary", instancesOf(routing.CanarySize, total), wait), step("all", total, wait)];
  } else if (routing?.Type === "LINEAR" && routing.LinearStepSize) {
    const size = Math.max(1, instancesOf(routing.LinearStepSize, total));
    steps = [];
    for (let up = size; up < total + size; up += size) steps.push(step("linear", up, wait));
  } else {
    steps = [step("all", total, wait)];
  }
  return finish({
    strategy: "blue-green",
    routing: routing?.Type ?? "ALL_AT_ONCE",
    steps,
    terminationWaitSeconds: blueGreen?.TerminationWaitInSeconds ?? 0,
    maximumExecutionTimeoutSeconds: blueGreen?.MaximumExecutionTimeoutInSeconds ?? null,
    rollbackBatchInstances: total,
  });
}
