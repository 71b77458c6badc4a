import { ProductionVariantInstanceType } from "@aws-sdk/client-sagemaker";
import {
  checkUpdateEndpoint,
  deploymentSchedule,
  instanceTypeHasInstanceStorage,
} from "@decision-console/local-aws/testing";
import { describe, expect, it } from "vitest";
import {
  type CapacitySize,
  capacityProblem,
  type DeploymentConfig,
  deploymentPlan,
} from "../../contract/endpoints/deployment-plan.ts";
import { hasInstanceStorage } from "../../contract/endpoints/storage-volume.ts";

/**
 * The console and local SageMaker each read the same AWS documentation for deployment schedules, capacity sizes and
 * instance storage, in code of their own (local mode imports none of the console's). Where the two readings
 * disagree, one of them misreads AWS: this holds them against each other over every case below.
 */

const sizes: CapacitySize[] = [
  ...[1, 2, 3, 4, 5, 8].map((Value) => ({ Type: "INSTANCE_COUNT" as const, Value })),
  ...[1, 5, 10, 20, 25, 33, 50, 51, 75].map((Value) => ({ Type: "CAPACITY_PERCENT" as const, Value })),
];
const fleets = [1, 2, 3, 4, 5, 7, 10, 20];

function configs(): DeploymentConfig[] {
  const out: DeploymentConfig[] = [undefined as unknown as DeploymentConfig, {}];
  out.push({
    BlueGreenUpdatePolicy: {
      TrafficRoutingConfiguration: { Type: "ALL_AT_ONCE", WaitIntervalInSeconds: 30 },
      TerminationWaitInSeconds: 60,
    },
  });
  for (const size of sizes) {
    out.push({
      BlueGreenUpdatePolicy: {
        TrafficRoutingConfiguration: { Type: "CANARY", WaitIntervalInSeconds: 10, CanarySize: size },
      },
    });
    out.push({
      BlueGreenUpdatePolicy: {
        TrafficRoutingConfiguration: { Type: "LINEAR", WaitIntervalInSeconds: 5, LinearStepSize: size },
      },
    });
    out.push({
      RollingUpdatePolicy: { MaximumBatchSize: size, WaitIntervalInSeconds: 20, RollbackMaximumBatchSize: size },
    });
    out.push({ RollingUpdatePolicy: { MaximumBatchSize: size, WaitIntervalInSeconds: 20 } });
  }
  return out;
}

/** Local mode's verdict on a config for a one-variant fleet: the refusal's message, or null. */
function localVerdict(config: DeploymentConfig | undefined, total: number): string | null {
  const variant = {
    VariantName: "AllTraffic",
    ModelName: "m",
    InitialInstanceCount: total,
    InstanceType: "ml.c6i.large",
  };
  try {
    checkUpdateEndpoint({
      arn: "arn:aws:sagemaker:us-east-1:000000000000:endpoint/e",
      endpoint: { status: "InService" } as never,
      currentVariants: [variant] as never,
      newVariants: [variant] as never,
      instanceCounts: new Map([["AllTraffic", total]]),
      deploymentConfig: config as never,
      missingAlarms: [],
    });
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The console's verdict on the same config: the capacity problem its update form shows, or null. */
function consoleVerdict(config: DeploymentConfig | undefined, total: number): string | null {
  const routing = config?.BlueGreenUpdatePolicy?.TrafficRoutingConfiguration;
  if (routing?.Type === "CANARY" && routing.CanarySize) return capacityProblem("canary", routing.CanarySize, total);
  if (routing?.Type === "LINEAR" && routing.LinearStepSize)
    return capacityProblem("linear", routing.LinearStepSize, total);
  const rolling = config?.RollingUpdatePolicy;
  if (rolling) return capacityProblem("rolling", rolling.MaximumBatchSize, total);
  return null;
}

describe("the console's and local mode's readings of UpdateEndpoint's deployment guardrails", () => {
  it("accept and refuse the same capacity sizes for every strategy and fleet", () => {
    const disagreements: string[] = [];
    for (const config of configs()) {
      for (const total of fleets) {
        const local = localVerdict(config, total);
        const console = consoleVerdict(config, total);
        // Only where the console sees no capacity problem does local mode's RollbackMaximumBatchSize rule add one.
        const rollbackOnly = local?.startsWith("RollbackMaximumBatchSize") && console === null;
        if ((local === null) !== (console === null) && !rollbackOnly) {
          disagreements.push(`${JSON.stringify(config)} on ${total}: local ${local}, console ${console}`);
        }
      }
    }
    expect(disagreements).toEqual([]);
  });

  it("schedule the same traffic shifts, bakes, termination wait and rollback batches", () => {
    let compared = 0;
    for (const config of configs()) {
      for (const total of fleets) {
        if (consoleVerdict(config, total) !== null) continue;
        const plan = deploymentPlan(config, total);
        const schedule = deploymentSchedule(config as never, total);
        expect(schedule.strategy).toBe(plan.strategy);
        expect(schedule.shifts).toEqual(plan.steps);
        expect(schedule.terminationWaitSeconds).toBe(plan.terminationWaitSeconds);
        expect(schedule.rollbackBatchInstances).toBe(plan.rollbackBatchInstances);
        compared++;
      }
    }
    // Most of the grid is valid: the comparison is not vacuous (198 configurations and fleets when written).
    expect(compared).toBeGreaterThan(100);
  });
});

describe("the console's and local mode's readings of instance storage", () => {
  it("agree on every instance type of the service model's ProductionVariantInstanceType", () => {
    const types = Object.values(ProductionVariantInstanceType);
    const disagreements = types.filter((type) => hasInstanceStorage(type) !== instanceTypeHasInstanceStorage(type));
    expect(types.length).toBeGreaterThan(100);
    expect(disagreements).toEqual([]);
  });
});
