import type { PromoteShadowRequestInput } from "@/contract/endpoints/shadow-test.ts";
import { strategyCapacityProblem } from "@/contract/endpoints/update.ts";
import { STANDARD_LATENCY_ALARM_MS } from "../endpoints/latency-alarm-default.ts";

export interface PromotionChoice {
  id: string;
  label: string;
  request: PromoteShadowRequestInput;
}

/** A bake long enough for the standard alarms (per-minute datapoints) to see the candidate serve. */
const BAKE_SECONDS = 300;

const unguarded: PromotionChoice = {
  id: "all-at-once",
  label: "All at once, no rollback alarms",
  request: { strategy: { kind: "all-at-once", waitSeconds: 0 }, alarms: { kind: "none" } },
};

const canaryStrategy = { kind: "canary", size: { unit: "instances", value: 1 }, waitSeconds: 60 } as const;

/**
 * The ways to promote that SageMaker accepts for the endpoint in front of you, the first being the default: a canary
 * only where its one instance is at most half the fleet ("CanarySize must be <= 50%"), else all at once with a bake
 * under the alarms; and, when a canary does not fit, why, so the page can say to add an instance. The standard
 * alarms' latency threshold is the one the update form derives from the endpoint's recent latency
 * (latencyAlarmDefault), or the standard 2000 ms without any.
 */
export function promotionChoices(
  instanceCount: number,
  latencyThresholdMs: number = STANDARD_LATENCY_ALARM_MS,
): { choices: PromotionChoice[]; canaryProblem: string | null } {
  const alarms = { kind: "standard", latencyAverageMs: latencyThresholdMs } as const;
  const guarded = `under the standard alarms (ModelLatency average above ${latencyThresholdMs} ms)`;
  const canary: PromotionChoice = {
    id: "canary",
    label: `Canary: 1 instance for 60 s ${guarded}`,
    request: { strategy: canaryStrategy, alarms },
  };
  const bake: PromotionChoice = {
    id: "bake",
    label: `All at once, then a ${BAKE_SECONDS / 60}-minute bake ${guarded}`,
    request: { strategy: { kind: "all-at-once", waitSeconds: BAKE_SECONDS }, alarms },
  };
  const canaryProblem = strategyCapacityProblem(canaryStrategy, instanceCount);
  return { choices: canaryProblem ? [bake, unguarded] : [canary, bake, unguarded], canaryProblem };
}
