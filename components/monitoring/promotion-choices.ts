import type { PromoteShadowRequestInput } from "@/contract/endpoints/shadow-test.ts";
import { strategyCapacityProblem } from "@/contract/endpoints/update.ts";

export interface PromotionChoice {
  id: string;
  label: string;
  request: PromoteShadowRequestInput;
}

/** A bake long enough for the standard alarms (per-minute datapoints) to see the candidate serve. */
const BAKE_SECONDS = 300;

const standardAlarms = { kind: "standard", latencyAverageMs: 2000 } as const;

const canary: PromotionChoice = {
  id: "canary",
  label: "Canary: 1 instance for 60 s under the standard alarms",
  request: {
    strategy: { kind: "canary", size: { unit: "instances", value: 1 }, waitSeconds: 60 },
    alarms: standardAlarms,
  },
};
const bake: PromotionChoice = {
  id: "bake",
  label: `All at once, then a ${BAKE_SECONDS / 60}-minute bake under the standard alarms`,
  request: { strategy: { kind: "all-at-once", waitSeconds: BAKE_SECONDS }, alarms: standardAlarms },
};
const unguarded: PromotionChoice = {
  id: "all-at-once",
  label: "All at once, no rollback alarms",
  request: { strategy: { kind: "all-at-once", waitSeconds: 0 }, alarms: { kind: "none" } },
};

/**
 * The ways to promote that SageMaker accepts for the endpoint in front of you, the first being the default: a canary
 * only where its one instance is at most half the fleet ("CanarySize must be <= 50%"), else all at once with a bake
 * under the alarms; and, when a canary does not fit, why, so the page can say to add an instance.
 */
export function promotionChoices(instanceCount: number): { choices: PromotionChoice[]; canaryProblem: string | null } {
  const strategy = canary.request.strategy as Parameters<typeof strategyCapacityProblem>[0];
  const canaryProblem = strategyCapacityProblem(strategy, instanceCount);
  return { choices: canaryProblem ? [bake, unguarded] : [canary, bake, unguarded], canaryProblem };
}
