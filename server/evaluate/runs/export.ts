import type { EvaluationDetail } from "../../../contract/evaluate/evaluations.ts";
import { csvText } from "./csv-field.ts";
import type { RunData } from "./run-view.ts";

export interface ExportedItem {
  endpoint: string;
  item_id: string;
  position: number;
  category: string | null;
  tier: string | null;
  answer: string;
  chosen: string | null;
  correct: boolean;
  option_ids: string[];
  probabilities: number[] | null;
  option_logits: number[] | null;
  latency_ms: number;
  adapter_ms: number | null;
  attempts: number;
  error_kind: string | null;
  error_message: string | null;
  finished_at: string;
}

export function exportedItems(data: RunData): ExportedItem[] {
  const items = new Map(data.items.map((item) => [item.position, item]));
  return data.results.flatMap((result) => {
    const item = items.get(result.position);
    if (!item) return [];
    return [
      {
        endpoint: data.targets[result.slot] ?? String(result.slot),
        item_id: result.itemId,
        position: result.position,
        category: item.category,
        tier: item.tier,
        answer: item.answer,
        chosen: result.chosen,
        correct: result.chosen === item.answer,
        option_ids: item.decision.options.map((option) => option.id),
        probabilities: result.probabilities,
        option_logits: result.logits,
        latency_ms: result.latencyMs,
        adapter_ms: result.adapterMs,
        attempts: result.attempts,
        error_kind: result.errorKind,
        error_message: result.errorMessage,
        finished_at: result.finishedAt,
      },
    ];
  });
}

/** The run, its metrics and every per-item result. */
export function exportJson(detail: EvaluationDetail, data: RunData): string {
  return `${JSON.stringify({ evaluation: detail, items: exportedItems(data) }, null, 2)}\n`;
}

const CSV_COLUMNS: (keyof ExportedItem)[] = [
  "endpoint",
  "item_id",
  "position",
  "category",
  "tier",
  "answer",
  "chosen",
  "correct",
  "option_ids",
  "probabilities",
  "option_logits",
  "latency_ms",
  "adapter_ms",
  "attempts",
  "error_kind",
  "error_message",
  "finished_at",
];

/** One row per endpoint and item; list columns hold JSON arrays. */
export function exportCsv(data: RunData): string {
  return csvText([CSV_COLUMNS, ...exportedItems(data).map((item) => CSV_COLUMNS.map((column) => item[column]))]);
}
