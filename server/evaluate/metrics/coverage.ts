import type { CoveragePoint } from "../../../contract/evaluate/metrics.ts";
import { confidence, type DecisionOutcome, isCorrect, isScored } from "./outcome.ts";

/**
 * Coverage against accuracy as the probability threshold rises: one point per distinct confidence, lowest
 * first. Failed items are left out: a threshold cannot route a request that returned no probabilities.
 */
export function coverageCurve(outcomes: readonly DecisionOutcome[]): CoveragePoint[] {
  const scored = outcomes
    .filter(isScored)
    .map((outcome) => ({ c: confidence(outcome), correct: isCorrect(outcome) }))
    .sort((a, b) => b.c - a.c);
  const n = scored.length;
  const points: CoveragePoint[] = [];
  let covered = 0;
  let correct = 0;
  for (let i = 0; i < n; i++) {
    const item = scored[i] as (typeof scored)[number];
    covered += 1;
    correct += item.correct ? 1 : 0;
    const next = scored[i + 1];
    if (next !== undefined && next.c === item.c) continue;
    points.push({ threshold: item.c, coverage: covered / n, accuracy: correct / covered, covered });
  }
  return points.reverse();
}
