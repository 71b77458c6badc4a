import { chosenOption, confidence, type DecisionOutcome, isScored } from "../metrics/outcome.ts";
import type { EvaluationMetrics } from "../metrics/summary.ts";

export interface ComparisonSide {
  label: string;
  endpointName: string;
  /** Instance type and threads as read when the run started; null when it could not be read. */
  configuration?: string | null;
  metrics: EvaluationMetrics;
  outcomes: readonly DecisionOutcome[];
}

/** One line of the side-by-side table, the AWS post's columns plus calibration. */
export interface ComparisonRow {
  label: string;
  endpointName: string;
  configuration: string | null;
  correct: number;
  total: number;
  accuracy: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  brier: number | null;
  ece: number | null;
  errors: number;
}

export interface Disagreement {
  itemId: string;
  answer: string;
  /** Per side: the chosen option (null when it failed) and its probability. */
  chosen: (string | null)[];
  confidence: (number | null)[];
}

export interface Comparison {
  rows: ComparisonRow[];
  /** Items both sides finished. */
  compared: number;
  disagreements: Disagreement[];
}

function row(side: ComparisonSide): ComparisonRow {
  const { metrics } = side;
  return {
    label: side.label,
    endpointName: side.endpointName,
    configuration: side.configuration ?? null,
    correct: metrics.accuracy.correct,
    total: metrics.accuracy.total,
    accuracy: metrics.accuracy.accuracy,
    p50Ms: metrics.latency.p50,
    p95Ms: metrics.latency.p95,
    brier: metrics.brier,
    ece: metrics.calibration.ece,
    errors: Object.values(metrics.errors).reduce((a, b) => a + b, 0),
  };
}

/** Two endpoints (or two runs) on the same items: the table, and every item whose chosen options differ. */
export function compare(a: ComparisonSide, b: ComparisonSide): Comparison {
  const other = new Map(b.outcomes.map((outcome) => [outcome.itemId, outcome]));
  const disagreements: Disagreement[] = [];
  let compared = 0;
  for (const left of a.outcomes) {
    const right = other.get(left.itemId);
    if (!right) continue;
    compared += 1;
    const sides = [left, right];
    const chosen = sides.map((outcome) => (isScored(outcome) ? chosenOption(outcome) : null));
    if (chosen[0] === chosen[1]) continue;
    disagreements.push({
      itemId: left.itemId,
      answer: left.answer,
      chosen,
      confidence: sides.map((outcome) => (isScored(outcome) ? confidence(outcome) : null)),
    });
  }
  return { rows: [row(a), row(b)], compared, disagreements };
}
