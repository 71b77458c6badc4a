import type { ConfusionMatrix } from "../../../contract/evaluate/metrics.ts";
import { chosenIndex, chosenOption, type DecisionOutcome, isScored } from "./outcome.ts";

const TOP_CONFUSIONS = 10;

/** `A`, `B`, ... `Z`, then `#27`...: an option's position in its item, as the prompt labels it. */
export function positionLabel(index: number): string {
  return index < 26 ? String.fromCharCode(65 + index) : `#${index + 1}`;
}

/** Whether every item offers the same options (in any order), so a matrix over option ids means something. */
function shareOneOptionSet(outcomes: readonly DecisionOutcome[]): boolean {
  const sets = new Set(outcomes.map((outcome) => [...outcome.optionIds].sort().join("\u0000")));
  return sets.size <= 1;
}

/** The wrong choices, as (answer, chosen) option-id pairs, most frequent first. */
function topConfusions(outcomes: readonly DecisionOutcome[]): ConfusionMatrix["topConfusions"] {
  const counts = new Map<string, { answer: string; chosen: string; count: number }>();
  for (const outcome of outcomes) {
    if (!isScored(outcome)) continue;
    const chosen = chosenOption(outcome);
    if (chosen === outcome.answer) continue;
    const key = `${outcome.answer}\u0000${chosen}`;
    const entry = counts.get(key) ?? { answer: outcome.answer, chosen, count: 0 };
    entry.count += 1;
    counts.set(key, entry);
  }
  return [...counts.values()]
    .sort((a, b) => b.count - a.count || a.answer.localeCompare(b.answer) || a.chosen.localeCompare(b.chosen))
    .slice(0, TOP_CONFUSIONS);
}

/**
 * Answers in rows, choices in columns. When the items share one option set the labels are its option ids; when they
 * do not (JevBench: every decision has its own options) a matrix over option ids would have a row per id and say
 * nothing, so the labels are the options' positions (A, B, ...) and the most frequent confusions are listed by id.
 */
export function confusionMatrix(outcomes: readonly DecisionOutcome[]): ConfusionMatrix {
  const byOption = shareOneOptionSet(outcomes);
  const answerLabel = (outcome: DecisionOutcome) =>
    byOption ? outcome.answer : positionLabel(outcome.optionIds.indexOf(outcome.answer));
  const chosenLabel = (outcome: DecisionOutcome) =>
    isScored(outcome)
      ? byOption
        ? chosenOption(outcome)
        : positionLabel(chosenIndex(outcome.probabilities))
      : undefined;
  const labelSet = new Set<string>();
  for (const outcome of outcomes) {
    labelSet.add(answerLabel(outcome));
    const chosen = chosenLabel(outcome);
    if (chosen !== undefined) labelSet.add(chosen);
  }
  const labels = [...labelSet].sort((a, b) => a.length - b.length || a.localeCompare(b));
  const index = new Map(labels.map((label, i) => [label, i]));
  const counts = labels.map(() => labels.map(() => 0));
  const unscored: Record<string, number> = {};
  for (const outcome of outcomes) {
    const answer = answerLabel(outcome);
    const chosen = chosenLabel(outcome);
    if (chosen === undefined) {
      unscored[answer] = (unscored[answer] ?? 0) + 1;
      continue;
    }
    const row = counts[index.get(answer) as number] as number[];
    const column = index.get(chosen) as number;
    row[column] = (row[column] as number) + 1;
  }
  return { by: byOption ? "option" : "position", labels, counts, unscored, topConfusions: topConfusions(outcomes) };
}
