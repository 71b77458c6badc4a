import type { StoredItem } from "../datasets/dataset-store.ts";
import type { DecisionOutcome } from "../metrics/outcome.ts";
import type { ItemResult } from "./run-store.ts";

/** The finished items of one endpoint of a run, joined with their labels, in dataset order. */
export function outcomesOf(
  items: readonly StoredItem[],
  results: readonly ItemResult[],
  slot: number,
): DecisionOutcome[] {
  const bySlot = new Map(results.filter((result) => result.slot === slot).map((result) => [result.position, result]));
  const outcomes: DecisionOutcome[] = [];
  for (const item of items) {
    const result = bySlot.get(item.position);
    if (!result) continue;
    outcomes.push({
      itemId: item.decision.id,
      optionIds: item.decision.options.map((option) => option.id),
      answer: item.answer,
      probabilities: result.probabilities,
      logits: result.logits,
      latencyMs: result.latencyMs,
      errorKind: result.errorKind,
      errorMessage: result.errorMessage,
      category: item.category,
      tier: item.tier,
    });
  }
  return outcomes;
}
