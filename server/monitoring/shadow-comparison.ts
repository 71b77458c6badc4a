import { quantileOf } from "@decision-console/adapter/contract";
import type { ShadowComparison } from "../../contract/endpoints/monitoring.ts";
import type { StoredDecision } from "./monitoring-store.ts";

/** A shadow's copy is captured within this long of the production answer it copies. */
export const PAIR_WITHIN_MS = 120_000;

function latencyOf(decisions: readonly StoredDecision[]) {
  const values = decisions.flatMap((decision) => (decision.latencyMs === null ? [] : [decision.latencyMs]));
  if (values.length === 0) return null;
  return {
    meanMs: values.reduce((sum, value) => sum + value, 0) / values.length,
    p95Ms: quantileOf(values, 0.95) ?? 0,
  };
}

type Pair = { production: StoredDecision; shadow: StoredDecision };

/**
 * Each production decision with the shadow's answer to the same request (same input, same position in it),
 * one to one, the earliest unpaired shadow answer within PAIR_WITHIN_MS: a request sent many times pairs its
 * copies in order, never all with all.
 */
export function pairDecisions(production: readonly StoredDecision[], shadow: readonly StoredDecision[]): Pair[] {
  const waiting = new Map<string, StoredDecision[]>();
  for (const decision of shadow) {
    const key = `${decision.inputKey}/${decision.item}`;
    const queue = waiting.get(key);
    if (queue) queue.push(decision);
    else waiting.set(key, [decision]);
  }
  const pairs: Pair[] = [];
  for (const decision of production) {
    const queue = waiting.get(`${decision.inputKey}/${decision.item}`);
    if (!queue) continue;
    while (queue.length > 0 && (queue[0]?.atMs ?? 0) < decision.atMs - PAIR_WITHIN_MS) queue.shift();
    const match = queue[0];
    if (match && Math.abs(match.atMs - decision.atMs) <= PAIR_WITHIN_MS) {
      queue.shift();
      pairs.push({ production: decision, shadow: match });
    }
  }
  return pairs;
}

/**
 * Production against shadow over paired decisions: agreement (the same top option), the mean absolute difference
 * of the probability each gave production's chosen option, and each side's latency.
 */
export function compareShadow(
  names: { production: string; shadow: string },
  production: readonly StoredDecision[],
  shadow: readonly StoredDecision[],
  optionsOf: (kind: string) => readonly string[] | undefined,
): Omit<ShadowComparison, "calls"> {
  const pairs = pairDecisions(production, shadow);
  const byKind = new Map<string, { pairs: number; agreeing: number }>();
  let agreeing = 0;
  let difference = 0;
  for (const pair of pairs) {
    const same = pair.production.chosen === pair.shadow.chosen;
    if (same) agreeing++;
    const options = optionsOf(pair.production.kind) ?? [];
    const at = options.indexOf(pair.production.chosen);
    const shadowProbability = at >= 0 ? (pair.shadow.probabilities[at] ?? 0) : 0;
    difference += Math.abs(pair.production.topProbability - shadowProbability);
    const kind = byKind.get(pair.production.kind) ?? { pairs: 0, agreeing: 0 };
    kind.pairs++;
    if (same) kind.agreeing++;
    byKind.set(pair.production.kind, kind);
  }
  return {
    ...names,
    pairs: pairs.length,
    agreement: pairs.length === 0 ? null : agreeing / pairs.length,
    meanProbabilityDifference: pairs.length === 0 ? null : difference / pairs.length,
    unpairedProduction: production.length - pairs.length,
    unpairedShadow: shadow.length - pairs.length,
    productionLatency: latencyOf(pairs.map((pair) => pair.production)),
    shadowLatency: latencyOf(pairs.map((pair) => pair.shadow)),
    byKind: [...byKind.entries()].map(([kind, tally]) => ({
      kind,
      pairs: tally.pairs,
      agreement: tally.agreeing / tally.pairs,
    })),
  };
}
