import type { DecisionOutcome } from "./outcome.ts";

/** How many items failed, by error kind (e.g. `busy`, `client_error`, `timeout`), most frequent first. */
export function errorCounts(outcomes: readonly DecisionOutcome[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const outcome of outcomes) {
    if (!outcome.errorKind) continue;
    counts.set(outcome.errorKind, (counts.get(outcome.errorKind) ?? 0) + 1);
  }
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}
