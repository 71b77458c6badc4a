import { describe, expect, it } from "vitest";
import type { EvaluationPromise } from "../../contract/endpoints/realised-quality.ts";
import { accuracyInterval } from "../../contract/evaluate/threshold.ts";
import type { IntervalTally, KindTallies } from "./label-tallies.ts";
import { intervalAccuracy, realisedAlarm, realisedKind } from "./realised-quality.ts";

const OPTIONS = ["billing", "support"];
const HOUR = 3_600_000;
const FROM = Date.parse("2026-12-01T00:00:00Z");

const promise = (correct: number, total: number): EvaluationPromise => ({
  runId: "run-1",
  basis: { why: "deployed", by: "ops", at: "2026-12-01T00:00:00.000Z" },
  accuracy: intervalAccuracy(correct, total),
  atThreshold: intervalAccuracy(correct, total),
  coverage: 1,
  ece: 0.05,
});

const tally = (labelled: number, correct: number, covered: number, coveredCorrect: number): IntervalTally => ({
  labelled,
  correct,
  covered,
  coveredCorrect,
});

const bin = (count: number, confidence: number, correct: number) => ({ count, confidence, correct });

/** Two intervals' tallies; bins: 0.6-0.7 holds 2 (1 right), 0.9-1 holds 2 (1 right). */
const TALLIES: KindTallies = {
  intervals: new Map([
    [FROM, tally(3, 2, 2, 1)],
    [FROM + HOUR, tally(1, 0, 0, 0)],
  ]),
  bins: Array.from({ length: 10 }, (_, i) => (i === 6 ? bin(2, 1.3, 1) : i === 9 ? bin(2, 1.85, 1) : bin(0, 0, 0))),
  scored: 4,
  brierSum: 1.2,
  delay: { p50Seconds: 3600, p90Seconds: 3600 },
};

const kindOf = (tallies: KindTallies | undefined, evaluation: EvaluationPromise | null = null) =>
  realisedKind({
    kind: "k",
    question: "Which team?",
    options: OPTIONS,
    tallies,
    decisionsPerInterval: new Map([
      [FROM, 10],
      [FROM + HOUR, 10],
    ]),
    window: { fromMs: FROM, toMs: FROM + 2 * HOUR, intervalMs: HOUR },
    evaluation,
  });

describe("realised quality of a decision kind", () => {
  it("counts accuracy over all labels and over those whose top probability reaches the threshold", () => {
    const kind = kindOf(TALLIES);
    expect(kind.accuracy).toMatchObject({ labelled: 4, correct: 2, accuracy: 0.5 });
    expect(kind.atThreshold).toMatchObject({ labelled: 2, correct: 1, accuracy: 0.5 });
    expect(kind.coverage).toBe(0.5);
    expect(kind.labelledShare).toBe(4 / 20);
    expect(kind.brier).toBeCloseTo(0.3, 12);
    expect(kind.calibration.ece).toBeCloseTo(0.5 * Math.abs(0.5 - 0.65) + 0.5 * Math.abs(0.5 - 0.925), 12);
    expect(kind.labelDelay).toEqual({ p50Seconds: 3600, p90Seconds: 3600 });
  });

  it("gives each interval its decisions, labels and accuracy", () => {
    expect(
      kindOf(TALLIES).intervals.map((interval) => [interval.decisions, interval.labelled, interval.accuracy.accuracy]),
    ).toEqual([
      [10, 3, 2 / 3],
      [10, 1, 0],
    ]);
  });

  it("has decisions and no figures for a kind without labels", () => {
    const kind = kindOf(undefined);
    expect(kind).toMatchObject({ decisions: 20, labelled: 0, labelledShare: 0, brier: null, labelDelay: null });
    expect(kind.accuracy.accuracy).toBeNull();
    expect(kind.calibration.ece).toBeNull();
    expect(kind.alarm.state).toBe("INSUFFICIENT_DATA");
  });

  it("gives the evaluation's Wilson interval for the accuracy", () => {
    expect(intervalAccuracy(180, 231)).toMatchObject({ accuracy: 180 / 231, ...accuracyInterval(180, 231) });
    expect(intervalAccuracy(0, 0)).toEqual({ labelled: 0, correct: 0, accuracy: null, lower: null, upper: null });
  });
});

describe("the realised-accuracy alarm", () => {
  const evaluation = promise(180, 231);
  const lower = evaluation.atThreshold.lower ?? 0;

  it("is ALARM when accuracy at the threshold falls below the evaluation's lower bound on enough labels", () => {
    const below = Math.floor((lower - 0.02) * 300);
    expect(realisedAlarm(intervalAccuracy(below, 300), evaluation, 250).state).toBe("ALARM");
  });

  it("is OK at the evaluation's accuracy", () => {
    expect(realisedAlarm(intervalAccuracy(234, 300), evaluation, 250).state).toBe("OK");
  });

  it("waits for enough labels: the same shortfall on fewer labels is INSUFFICIENT_DATA", () => {
    const below = Math.floor((lower - 0.02) * 100);
    expect(realisedAlarm(intervalAccuracy(below, 100), evaluation, 250)).toEqual({
      state: "INSUFFICIENT_DATA",
      reason: "100 labelled decisions at the threshold; the alarm needs 250",
    });
  });

  it("has nothing to say without an evaluation of the kind", () => {
    expect(realisedAlarm(intervalAccuracy(10, 300), null, 250).state).toBe("INSUFFICIENT_DATA");
  });
});
