import type { RefusedLabel } from "../../contract/endpoints/ground-truth.ts";
import type { DecisionLabel, LabelTarget } from "./ground-truth-store.ts";

/** A label as it arrived, before it is matched with the decision its inference id names. */
export interface ArrivedLabel {
  /** Its index in a batch, or its line in a ground-truth file. */
  row: number;
  object?: string;
  inferenceId: string;
  label: string;
  labelledAtMs: number;
  /** A shared-state request's decision (its position in `decisions`). */
  item?: number;
  source: string;
}

/**
 * Matches each label with the decisions captured under its inference id (every variant's: a shadow's copy of the
 * request carries the production one's id), and checks the label is one of their options. A row that matches no
 * decision, or several without naming one, or names an option the decision did not have, is refused with the reason.
 */
export function matchLabels(
  arrived: readonly ArrivedLabel[],
  decisionsOf: ReadonlyMap<string, readonly LabelTarget[]>,
  optionsOf: (kind: string) => readonly string[] | undefined,
): { labels: DecisionLabel[]; refused: RefusedLabel[] } {
  const labels: DecisionLabel[] = [];
  const refused: RefusedLabel[] = [];
  for (const row of arrived) {
    const refuse = (why: string) =>
      refused.push({ row: row.row, ...(row.object ? { object: row.object } : {}), inferenceId: row.inferenceId, why });
    const captured = decisionsOf.get(row.inferenceId) ?? [];
    if (captured.length === 0) {
      refuse(
        `no captured decision has inference id "${row.inferenceId}" (the capture may not be read yet, or its decisions are older than the 7 days they are kept)`,
      );
      continue;
    }
    const items = [...new Set(captured.map((decision) => decision.item))].sort((a, b) => a - b);
    if (row.item === undefined && items.length > 1) {
      refuse(
        `inference id "${row.inferenceId}" is a shared-state request of ${items.length} decisions: name one with item (0-${items.length - 1})`,
      );
      continue;
    }
    const item = row.item ?? items[0];
    const targets = captured.filter((decision) => decision.item === item);
    if (targets.length === 0) {
      refuse(`inference id "${row.inferenceId}" has no decision at item ${item} (it has ${items.join(", ")})`);
      continue;
    }
    const options = optionsOf(targets[0]?.kind ?? "") ?? [];
    if (!options.includes(row.label)) {
      refuse(`label "${row.label}" is not one of the decision's options (${options.join(", ")})`);
      continue;
    }
    for (const decision of targets) {
      labels.push({ decision, label: row.label, labelledAtMs: row.labelledAtMs, source: row.source });
    }
  }
  return { labels, refused };
}
