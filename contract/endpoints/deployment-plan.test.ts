import { describe, expect, it } from "vitest";
import { capacityProblem, deploymentPlan } from "./deployment-plan.ts";

const blueGreen = (routing: Record<string, unknown>, extra: Record<string, number> = {}) => ({
  BlueGreenUpdatePolicy: { TrafficRoutingConfiguration: { WaitIntervalInSeconds: 30, ...routing } as never, ...extra },
});
const shape = (plan: ReturnType<typeof deploymentPlan>) =>
  plan.steps.map((step) => [step.kind, step.newInstances, step.newFleetShare, step.bakeSeconds]);

describe("deploymentPlan", () => {
  it("shifts all traffic at once with no baking period when there is no DeploymentConfig", () => {
    const plan = deploymentPlan(undefined, 3);
    expect(plan.routing).toBe("ALL_AT_ONCE");
    expect(shape(plan)).toEqual([["all", 3, 1, 0]]);
  });

  it("bakes a canary, then moves the rest and bakes again", () => {
    const plan = deploymentPlan(blueGreen({ Type: "CANARY", CanarySize: { Type: "CAPACITY_PERCENT", Value: 25 } }), 4);
    expect(shape(plan)).toEqual([
      ["canary", 1, 0.25, 30],
      ["all", 4, 1, 30],
    ]);
  });

  it("steps linearly, the last step taking what is left", () => {
    const plan = deploymentPlan(
      blueGreen(
        { Type: "LINEAR", LinearStepSize: { Type: "INSTANCE_COUNT", Value: 2 } },
        { TerminationWaitInSeconds: 60 },
      ),
      5,
    );
    expect(shape(plan)).toEqual([
      ["linear", 2, 0.4, 30],
      ["linear", 4, 0.8, 30],
      ["linear", 5, 1, 30],
    ]);
    expect(plan.waitSeconds).toBe(150);
  });

  it("rolls in batches and rolls back in RollbackMaximumBatchSize batches", () => {
    const plan = deploymentPlan(
      {
        RollingUpdatePolicy: {
          MaximumBatchSize: { Type: "CAPACITY_PERCENT", Value: 50 },
          WaitIntervalInSeconds: 10,
          RollbackMaximumBatchSize: { Type: "INSTANCE_COUNT", Value: 1 },
        },
      },
      4,
    );
    expect(plan.strategy).toBe("rolling");
    expect(shape(plan)).toEqual([
      ["batch", 2, 0.5, 10],
      ["batch", 4, 1, 10],
    ]);
    expect(plan.rollbackBatchInstances).toBe(1);
  });
});

describe("capacityProblem", () => {
  it("holds canaries to 50%, linear steps to 10-50% and rolling batches to 5-50% of the fleet", () => {
    expect(capacityProblem("canary", { Type: "INSTANCE_COUNT", Value: 1 }, 2)).toBeNull();
    expect(capacityProblem("canary", { Type: "INSTANCE_COUNT", Value: 2 }, 3)).toContain("less than or equal to 50%");
    expect(capacityProblem("canary", { Type: "CAPACITY_PERCENT", Value: 10 }, 4)).toContain("less than one instance");
    expect(capacityProblem("linear", { Type: "CAPACITY_PERCENT", Value: 9 }, 20)).toContain("between 10% and 50%");
    expect(capacityProblem("rolling", { Type: "CAPACITY_PERCENT", Value: 5 }, 20)).toBeNull();
    expect(capacityProblem("rolling", { Type: "INSTANCE_COUNT", Value: 11 }, 20)).toContain("between 5% and 50%");
  });
});
