import { describe, expect, it } from "vitest";
import type { EvaluationPromise } from "../../contract/endpoints/realised-quality.ts";
import { accuracyInterval } from "../../contract/evaluate/threshold.ts";
import { intervalAccuracy, type LabelledOutcome, realisedAlarm, realisedKind } from "./realised-quality.ts";

const OPTIONS = ["billing", "support"];
const HOUR = 3_600_000;
const FROM = Date.parse("2026-12-01T00:00:00Z");

/** A decision at `atMs` that chose billing with `top`, labelled `label` `delayMs` later. */
const labelled = (atMs: number, top: number, label: string, delayMs = HOUR): LabelledOutcome => ({
  atMs,
  labelledAtMs: atMs + delayMs,
  probabilities: [top, 1 - top],
  label,
});

const promise = (correct: number, total: number): EvaluationPromise => ({
  runId: "run-1",
  basis: { why: "deployed", by: "ops", at: "2026-12-01T00:00:00.000Z" },
  accuracy: intervalAccuracy(correct, total),
  atThreshold: intervalAccuracy(correct, total),
  coverage: 1,
  ece: 0.05,
});

const kindOf = (labels: LabelledOutcome[], evaluation: EvaluationPromise | null = null) =>
  realisedKind({
    kind: "k",
    question: "Which team?",
    options: OPTIONS,
    labels,
    decisionsPerInterval: new Map([
      [FROM, 10],
      [FROM + HOUR, 10],
    ]),
    window: { fromMs: FROM, toMs: FROM + 2 * HOUR, intervalMs: HOUR },
    threshold: 0.8,
    evaluation,
  });

describe("realised quality of a decision kind", () => {
  it("counts accuracy over all labels and over those whose top probability reaches the threshold", () => {
    const kind = kindOf([
      labelled(FROM, 0.9, "billing"),
      labelled(FROM + 1, 0.95, "support"),
      labelled(FROM + 2, 0.6, "billing"),
      labelled(FROM + HOUR, 0.7, "support"),
    ]);
    expect(kind.accuracy).toMatchObject({ labelled: 4, correct: 2, accuracy: 0.5 });
    expect(kind.atThreshold).toMatchObject({ labelled: 2, correct: 1, accuracy: 0.5 });
    expect(kind.coverage).toBe(0.5);
    expect(kind.labelledShare).toBe(4 / 20);
  });

  it("gives each interval its decisions, labels and accuracy", () => {
    const kind = kindOf([labelled(FROM, 0.9, "billing"), labelled(FROM + HOUR + 5, 0.9, "support")]);
    expect(
      kind.intervals.map((interval) => [interval.decisions, interval.labelled, interval.accuracy.accuracy]),
    ).toEqual([
      [10, 1, 1],
      [10, 1, 0],
    ]);
  });

  it("reports the label delay's median and 90th percentile in seconds", () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((minutes) => minutes * 60_000);
    const kind = kindOf(delays.map((delay, index) => labelled(FROM + index, 0.9, "billing", delay)));
    expect(kind.labelDelay).toEqual({ p50Seconds: 300, p90Seconds: 540 });
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
