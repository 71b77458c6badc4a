import type { GroundTruthRow } from "@/contract/endpoints/ground-truth.ts";
import type { IntervalAccuracy, RealisedKind } from "@/contract/endpoints/realised-quality.ts";
import type { ChartPoint } from "../charts/line-chart.tsx";

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/** "72.4% (95% 68.1–76.3%, 412 labels)", or "no labels". */
export function accuracyText(figure: IntervalAccuracy): string {
  if (figure.accuracy === null || figure.lower === null || figure.upper === null) return "no labels";
  const range = `${(figure.lower * 100).toFixed(1)}–${percent(figure.upper)}`;
  return `${percent(figure.accuracy)} (95% ${range}, ${figure.labelled} labels)`;
}

/** A delay in the largest unit that keeps it above 1: seconds, minutes, hours or days. */
export function delayText(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${(seconds / 60).toFixed(1)} min`;
  if (seconds < 86_400) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86_400).toFixed(1)} d`;
}

/** Accuracy at the threshold per interval, in percent, where the interval has labels at the threshold. */
export function accuracyPoints(kind: RealisedKind): ChartPoint[] {
  return kind.intervals.flatMap((interval) =>
    interval.atThreshold.accuracy === null ? [] : [{ at: interval.from, value: interval.atThreshold.accuracy * 100 }],
  );
}

/**
 * Label rows typed or pasted as JSON Lines (one `{inferenceId, label, labelledAt}` object a line) or as one JSON
 * array; the server checks each row, so this only splits the text. Throws with the line that is not JSON.
 */
export function labelRowsOf(text: string): GroundTruthRow[] {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  if (trimmed.startsWith("[")) return JSON.parse(trimmed) as GroundTruthRow[];
  return trimmed.split("\n").flatMap((line, index) => {
    if (line.trim() === "") return [];
    try {
      return [JSON.parse(line) as GroundTruthRow];
    } catch {
      throw new Error(`Line ${index + 1} is not JSON: ${line.slice(0, 80)}`);
    }
  });
}
