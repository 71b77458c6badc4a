import type { JevBenchRow } from "../../adapter/bench/bench-files.ts";
import { MAX_PERMUTATIONS, renderState } from "../../adapter/src/contract/decision.ts";

/** One /invocations body as production sends it: `decision`, or `decisions` for items on one shared state. */
export type QualityRequest = {
  rows: JevBenchRow[];
  body: Record<string, unknown>;
};

/** The decision fields the adapter reads (a labelled row's answer and strata stay out of the request). */
function decisionOf(row: JevBenchRow) {
  return { id: row.id, state: row.state, question: row.question, options: row.options };
}

/**
 * Items whose rendered states are equal go in one `decisions` request (at most `maxShared`, the adapter's
 * SEMIF_MAX_SHARED_DECISIONS), so the state is read once as in production; the rest one `decision` each.
 * `permutations`: 1 (the order as sent) or "all" (every cyclic order of each request's largest option list).
 */
export function qualityRequests(
  rows: readonly JevBenchRow[],
  permutations: 1 | "all",
  maxShared = 8,
): QualityRequest[] {
  const byState = new Map<string, JevBenchRow[]>();
  for (const row of rows) {
    const key = renderState(row.state as Parameters<typeof renderState>[0]);
    byState.set(key, [...(byState.get(key) ?? []), row]);
  }
  const requests: QualityRequest[] = [];
  for (const group of byState.values()) {
    for (let start = 0; start < group.length; start += maxShared) {
      const chunk = group.slice(start, start + maxShared);
      const widest = Math.max(...chunk.map((row) => row.options.length));
      const orders = permutations === 1 ? 1 : Math.min(MAX_PERMUTATIONS, widest);
      const decisions = chunk.length === 1 ? { decision: decisionOf(chunk[0]!) } : { decisions: chunk.map(decisionOf) };
      requests.push({ rows: chunk, body: orders > 1 ? { ...decisions, permutations: orders } : decisions });
    }
  }
  return requests;
}
