import {
  type EvaluationPromise,
  type IntervalAccuracy,
  MIN_LABELS_FOR_ALARM,
  type RealisedAlarm,
  type RealisedInterval,
  type RealisedKind,
} from "../../contract/endpoints/realised-quality.ts";
import { accuracyInterval } from "../../contract/evaluate/threshold.ts";
import { calibrationFromBins, emptyBinSums } from "../evaluate/metrics/calibration.ts";
import { type DecisionOutcome, isCorrect } from "../evaluate/metrics/outcome.ts";
import type { IntervalTally, KindTallies } from "./label-tallies.ts";

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

const NO_LABELS: IntervalTally = { labelled: 0, correct: 0, covered: 0, coveredCorrect: 0 };

/** Accuracy over an interval's labels and over those reaching the threshold, and that share. */
function talliedAccuracy(tally: IntervalTally) {
  return {
    accuracy: intervalAccuracy(tally.correct, tally.labelled),
    atThreshold: intervalAccuracy(tally.coveredCorrect, tally.covered),
    coverage: tally.labelled === 0 ? null : tally.covered / tally.labelled,
  };
}

/** One decision kind's realised quality over a window cut into intervals of `intervalMs`, from its labels' tallies. */
export function realisedKind(input: {
  kind: string;
  question: string;
  options: readonly string[];
  tallies: KindTallies | undefined;
  decisionsPerInterval: DecisionCounts;
  window: { fromMs: number; toMs: number; intervalMs: number };
  evaluation: EvaluationPromise | null;
}): RealisedKind {
  const { tallies, window } = input;
  const decisions = [...input.decisionsPerInterval.values()].reduce((sum, count) => sum + count, 0);
  const total = { ...NO_LABELS };
  const intervals: RealisedInterval[] = [];
  for (let from = window.fromMs; from < window.toMs; from += window.intervalMs) {
    const tally = tallies?.intervals.get(from) ?? NO_LABELS;
    total.labelled += tally.labelled;
    total.correct += tally.correct;
    total.covered += tally.covered;
    total.coveredCorrect += tally.coveredCorrect;
    const figures = talliedAccuracy(tally);
    intervals.push({
      from: new Date(from).toISOString(),
      decisions: input.decisionsPerInterval.get(from) ?? 0,
      labelled: tally.labelled,
      accuracy: figures.accuracy,
      atThreshold: figures.atThreshold,
    });
  }
  const overall = talliedAccuracy(total);
  return {
    kind: input.kind,
    question: input.question,
    options: [...input.options],
    decisions,
    labelled: total.labelled,
    labelledShare: decisions === 0 ? null : total.labelled / decisions,
    labelDelay: tallies?.delay ?? null,
    accuracy: overall.accuracy,
    atThreshold: overall.atThreshold,
    coverage: overall.coverage,
    brier: tallies && tallies.scored > 0 ? tallies.brierSum / tallies.scored : null,
    calibration: calibrationFromBins(tallies?.bins ?? emptyBinSums()),
    intervals,
    evaluation: input.evaluation,
    alarm: realisedAlarm(overall.atThreshold, input.evaluation),
  };
}
