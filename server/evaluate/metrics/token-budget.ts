import type { DecisionOutcome } from "./outcome.ts";

/**
 * How the evaluation knows an item is over an endpoint's token budget: the container refused it (4xx, kind
 * `rejected`) in the adapter's words for a prompt longer than the request's budget ("decisions exceeds the request
 * token budget: … has N prompt tokens …", adapter/src/engine/decision-scorer.ts; "… more than the request budget of
 * N", systemone.ts). Only the model's tokenizer can count the tokens, so this is the one rule: what the endpoint said.
 */
export function isTokenBudgetRefusal(outcome: Pick<DecisionOutcome, "errorKind" | "errorMessage">): boolean {
  return (
    outcome.errorKind === "rejected" &&
    /request token budget|more than the request budget/.test(outcome.errorMessage ?? "")
  );
}

/** The items an endpoint refused as over its token budget, in dataset order. */
export function overTokenBudget(outcomes: readonly DecisionOutcome[]): string[] {
  return outcomes.filter(isTokenBudgetRefusal).map((outcome) => outcome.itemId);
}
