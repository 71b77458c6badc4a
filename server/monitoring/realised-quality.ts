import { quantileOf } from "@decision-console/adapter/contract";
import {
  type EvaluationPromise,
  type IntervalAccuracy,
  MIN_LABELS_FOR_ALARM,
  type RealisedAlarm,
  type RealisedInterval,
  type RealisedKind,
} from "../../contract/endpoints/realised-quality.ts";
import { accuracyInterval } from "../../contract/evaluate/threshold.ts";
import { brierScore } from "../evaluate/metrics/brier.ts";
import { calibration } from "../evaluate/metrics/calibration.ts";
import { type DecisionOutcome, isCorrect } from "../evaluate/metrics/outcome.ts";

/** A labelled decision as realised quality reads it. */
export interface LabelledOutcome {
  atMs: number;
  labelledAtMs: number;
  probabilities: readonly number[];
  label: string;
}

/** An accuracy of `correct` of `labelled`, with the evaluation's own interval (95% Wilson). */
export function intervalAccuracy(correct: number, labelled: number): IntervalAccuracy {
  if (labelled === 0) return { labelled, correct, accuracy: null, lower: null, upper: null };
  const { lower, upper } = accuracyInterval(correct, labelled);
  return { labelled, correct, accuracy: correct / labelled, lower, upper };
}

const topProbability = (probabilities: readonly number[]) => Math.max(...probabilities);

/** Outcomes in the evaluation's terms: the label is the answer, the captured probabilities the scores. */
export function outcomesOf(labels: readonly LabelledOutcome[], options: readonly string[]): DecisionOutcome[] {
  return labels.map((label, index) => ({
    itemId: String(index),
    optionIds: options,
    answer: label.label,
    probabilities: label.probabilities,
  }));
}

/** Accuracy over all outcomes and over those whose top probability reaches the threshold, and that share. */
export function accuracyAtThreshold(outcomes: readonly DecisionOutcome[], threshold: number) {
  const covered = outcomes.filter(
    (outcome) => outcome.probabilities && topProbability(outcome.probabilities) >= threshold,
  );
  const count = (some: readonly DecisionOutcome[]) => some.filter(isCorrect).length;
  return {
    accuracy: intervalAccuracy(count(outcomes), outcomes.length),
    atThreshold: intervalAccuracy(count(covered), covered.length),
    coverage: outcomes.length === 0 ? null : covered.length / outcomes.length,
  };
}

const share = (value: number) => `${(value * 100).toFixed(1)}%`;

/**
 * ALARM when the accuracy at the threshold realised on at least `minLabels` labelled decisions is below the lower
 * end of the 95% interval the evaluation measured at the same threshold; INSUFFICIENT_DATA with fewer labels or no
 * evaluation to compare with.
 */
export function realisedAlarm(
  atThreshold: IntervalAccuracy,
  evaluation: EvaluationPromise | null,
  minLabels = MIN_LABELS_FOR_ALARM,
): RealisedAlarm {
  const promised = evaluation?.atThreshold.lower;
  if (promised === null || promised === undefined) {
    return { state: "INSUFFICIENT_DATA", reason: "no evaluation of this kind to compare with" };
  }
  if (atThreshold.accuracy === null || atThreshold.labelled < minLabels) {
    return {
      state: "INSUFFICIENT_DATA",
      reason: `${atThreshold.labelled} labelled decisions at the threshold; the alarm needs ${minLabels}`,
    };
  }
  const figures = `${share(atThreshold.accuracy)} on ${atThreshold.labelled} labels, evaluation's lower bound ${share(promised)}`;
  return atThreshold.accuracy < promised
    ? { state: "ALARM", reason: `realised accuracy at the threshold is below the evaluation's: ${figures}` }
    : { state: "OK", reason: figures };
}

/** Decisions captured per interval start (ms), as the rollups count them. */
export type DecisionCounts = ReadonlyMap<number, number>;

/** One decision kind's realised quality over a window cut into intervals of `intervalMs`. */
export function realisedKind(input: {
  kind: string;
  question: string;
  options: readonly string[];
  labels: readonly LabelledOutcome[];
  decisionsPerInterval: DecisionCounts;
  window: { fromMs: number; toMs: number; intervalMs: number };
  threshold: number;
  evaluation: EvaluationPromise | null;
}): RealisedKind {
  const { labels, options, threshold, window } = input;
  const outcomes = outcomesOf(labels, options);
  const overall = accuracyAtThreshold(outcomes, threshold);
  const decisions = [...input.decisionsPerInterval.values()].reduce((sum, count) => sum + count, 0);
  const delays = labels.map((label) => Math.max(0, label.labelledAtMs - label.atMs) / 1000);
  const intervals: RealisedInterval[] = [];
  for (let from = window.fromMs; from < window.toMs; from += window.intervalMs) {
    const inside = labels.filter((label) => label.atMs >= from && label.atMs < from + window.intervalMs);
    const figures = accuracyAtThreshold(outcomesOf(inside, options), threshold);
    intervals.push({
      from: new Date(from).toISOString(),
      decisions: input.decisionsPerInterval.get(from) ?? 0,
      labelled: inside.length,
      accuracy: figures.accuracy,
      atThreshold: figures.atThreshold,
    });
  }
  return {
    kind: input.kind,
    question: input.question,
    options: [...options],
    decisions,
    labelled: labels.length,
    labelledShare: decisions === 0 ? null : labels.length / decisions,
    labelDelay:
      delays.length === 0
        ? null
        : { p50Seconds: quantileOf(delays, 0.5) ?? 0, p90Seconds: quantileOf(delays, 0.9) ?? 0 },
    accuracy: overall.accuracy,
    atThreshold: overall.atThreshold,
    coverage: overall.coverage,
    brier: brierScore(outcomes),
    calibration: calibration(outcomes),
    intervals,
    evaluation: input.evaluation,
    alarm: realisedAlarm(overall.atThreshold, input.evaluation),
  };
}
