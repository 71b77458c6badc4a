import type { TokenBudgetRefusals } from "../../../contract/evaluate/datasets.ts";
import type { Store } from "../../store/store.ts";
import { datasetItems } from "../datasets/dataset-store.ts";
import { overTokenBudget } from "../metrics/token-budget.ts";
import { outcomesOf } from "./outcomes.ts";
import { listRuns, runResults, runTargets } from "./run-store.ts";

const LISTED_ITEMS = 20;

/**
 * For each endpoint (or batch model) a dataset was evaluated on, the items its latest evaluation with results found
 * over that endpoint's token budget: what the start forms warn about before a batch job sends them again.
 */
export async function tokenBudgetRefusals(store: Store, datasetId: string): Promise<TokenBudgetRefusals[]> {
  const runs = (await listRuns(store)).filter((run) => run.dataset_id === datasetId);
  if (runs.length === 0) return [];
  const items = await datasetItems(store, datasetId);
  const seen = new Set<string>();
  const found: TokenBudgetRefusals[] = [];
  for (const run of runs) {
    const results = await runResults(store, run.id);
    for (const [slot, endpointName] of (await runTargets(store, run.id)).entries()) {
      if (seen.has(endpointName)) continue;
      const outcomes = outcomesOf(items, results, slot);
      if (outcomes.length === 0) continue;
      seen.add(endpointName);
      const itemIds = overTokenBudget(outcomes);
      if (itemIds.length === 0) continue;
      found.push({
        endpointName,
        count: itemIds.length,
        itemIds: itemIds.slice(0, LISTED_ITEMS),
        evaluationId: run.id,
        evaluatedAt: run.created_at,
      });
    }
  }
  return found;
}
