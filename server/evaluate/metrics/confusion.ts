import type { ConfusionMatrix } from "../../../contract/evaluate/metrics.ts";
import { chosenOption, type DecisionOutcome, isScored } from "./outcome.ts";

export function confusionMatrix(outcomes: readonly DecisionOutcome[]): ConfusionMatrix {
  const labelSet = new Set<string>();
  for (const outcome of outcomes) {
    labelSet.add(outcome.answer);
    if (isScored(outcome)) labelSet.add(chosenOption(outcome));
  }
  const labels = [...labelSet].sort();
  const index = new Map(labels.map((label, i) => [label, i]));
  const counts = labels.map(() => labels.map(() => 0));
  const unscored: Record<string, number> = {};
  for (const outcome of outcomes) {
    const row = index.get(outcome.answer) as number;
    if (!isScored(outcome)) {
      unscored[outcome.answer] = (unscored[outcome.answer] ?? 0) + 1;
      continue;
    }
    const column = index.get(chosenOption(outcome)) as number;
    (counts[row] as number[])[column] = ((counts[row] as number[])[column] as number) + 1;
  }
  return { labels, counts, unscored };
}
