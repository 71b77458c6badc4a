import type { Comparison, ComparisonRow, Disagreement } from "../../../contract/evaluate/evaluations.ts";
import type { EvaluationMetrics } from "../../../contract/evaluate/metrics.ts";
import { chosenOption, confidence, type DecisionOutcome, isScored } from "../metrics/outcome.ts";

export interface ComparisonSide {
  label: string;
  endpointName: string;
  /** Instance type and threads as read when the run started; null when it could not be read. */
  configuration?: string | null;
  metrics: EvaluationMetrics;
  outcomes: readonly DecisionOutcome[];
}

function row(side: ComparisonSide): ComparisonRow {
  const { metrics } = side;
  return {
    label: side.label,
    endpointName: side.endpointName,
    configuration: side.configuration ?? null,
    correct: metrics.accuracy.correct,
    answered: metrics.accuracy.answered,
    accuracy: metrics.accuracy.accuracy,
    p50Ms: metrics.latency.p50,
    p95Ms: metrics.latency.p95,
    brier: metrics.brier,
    ece: metrics.calibration.ece,
    failed: metrics.accuracy.failed,
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
