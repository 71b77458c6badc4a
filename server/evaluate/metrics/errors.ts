import type { ErrorDetail } from "../../../contract/evaluate/metrics.ts";
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

const LISTED_ITEMS = 50;

/**
 * The failed items by error kind, and within a kind by message (numbers aside, so "5782 prompt tokens" and "4100
 * prompt tokens" are one message), most frequent first: the message of the first such item, how many, which items.
 */
export function errorDetails(outcomes: readonly DecisionOutcome[]): ErrorDetail[] {
  const kinds = new Map<string, Map<string, { message: string; count: number; itemIds: string[] }>>();
  for (const outcome of outcomes) {
    if (!outcome.errorKind) continue;
    const message = outcome.errorMessage ?? "(no message)";
    const key = message.replace(/\d+/g, "#");
    const messages = kinds.get(outcome.errorKind) ?? new Map();
    kinds.set(outcome.errorKind, messages);
    const entry = messages.get(key) ?? { message, count: 0, itemIds: [] };
    messages.set(key, entry);
    entry.count += 1;
    if (entry.itemIds.length < LISTED_ITEMS) entry.itemIds.push(outcome.itemId);
  }
  return [...kinds]
    .map(([kind, messages]) => {
      const list = [...messages.values()].sort((a, b) => b.count - a.count);
      return { kind, count: list.reduce((sum, entry) => sum + entry.count, 0), messages: list };
    })
    .sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind));
}
