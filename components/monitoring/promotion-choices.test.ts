import { describe, expect, it } from "vitest";
import { promoteShadowRequestSchema } from "@/contract/endpoints/shadow-test.ts";
import { strategyCapacityProblem } from "@/contract/endpoints/update.ts";
import { promotionChoices } from "./promotion-choices.ts";

describe("the ways to promote a shadow", () => {
  it("default on one instance to all at once with a bake, and say why a canary cannot run", () => {
    const { choices, canaryProblem } = promotionChoices(1);
    expect(choices[0]?.request).toMatchObject({ strategy: { kind: "all-at-once", waitSeconds: 300 } });
    expect(choices.map((choice) => choice.id)).not.toContain("canary");
    expect(canaryProblem).toContain("less than or equal to 50%");
  });

  it("default to a canary of one instance once it is at most half the fleet", () => {
    expect(promotionChoices(2).choices[0]?.id).toBe("canary");
    expect(promotionChoices(2).canaryProblem).toBeNull();
  });

  it("guard a promotion with the latency alarm the update form derives, and name its figure", () => {
    const { choices } = promotionChoices(2, 6200);
    const guarded = choices.filter((choice) => choice.request.alarms?.kind === "standard");
    expect(guarded.map((choice) => choice.id)).toEqual(["canary", "bake"]);
    for (const choice of guarded) {
      expect(choice.request.alarms).toEqual({ kind: "standard", latencyAverageMs: 6200 });
      expect(choice.label).toContain("ModelLatency average above 6200 ms");
    }
  });

  it("guard with the standard 2000 ms when the endpoint has no recent latency", () => {
    expect(promotionChoices(1).choices[0]?.request.alarms).toEqual({ kind: "standard", latencyAverageMs: 2000 });
  });

  it("offer only requests SageMaker accepts for the instance count", () => {
    for (const count of [1, 2, 3, 5]) {
      for (const choice of promotionChoices(count).choices) {
        const request = promoteShadowRequestSchema.parse(choice.request);
        expect(strategyCapacityProblem(request.strategy, count)).toBeNull();
      }
    }
  });
});
