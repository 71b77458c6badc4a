import { nearestRankQuantile, softmax } from "@decision-console/adapter/contract";
import { describe, expect, it } from "vitest";
import { thresholdForAccuracy } from "../../../contract/evaluate/threshold.ts";
import { accuracy, accuracyBy, chanceAccuracy } from "./accuracy.ts";
import { brierScore } from "./brier.ts";
import { calibration } from "./calibration.ts";
import { confusionMatrix } from "./confusion.ts";
import { coverageCurve } from "./coverage.ts";
import { errorCounts, errorDetails } from "./errors.ts";
import { latencyHistogram, latencySummary } from "./latency.ts";
import type { DecisionOutcome } from "./outcome.ts";
import { evaluationMetrics } from "./summary.ts";
import { fitTemperature } from "./temperature.ts";

let counter = 0;
function item(answer: string, probabilities: number[] | null, extra: Partial<DecisionOutcome> = {}): DecisionOutcome {
  counter += 1;
  return { itemId: `i${counter}`, optionIds: ["a", "b"], answer, probabilities, ...extra };
}

describe("accuracy", () => {
  it("is over the answered items, with the failed ones counted beside it, and breaks ties towards the option listed first", () => {
    const outcomes = [
      item("a", [0.9, 0.1]),
      item("a", [0.2, 0.8]),
      item("a", [0.5, 0.5]),
      item("b", [0.5, 0.5]),
      item("b", null, { errorKind: "busy" }),
    ];
    expect(accuracy(outcomes)).toEqual({ correct: 2, answered: 4, failed: 1, total: 5, accuracy: 0.5 });
  });

  it("groups by category and leaves out items without one", () => {
    const outcomes = [
      item("a", [0.9, 0.1], { category: "policy" }),
      item("a", [0.1, 0.9], { category: "policy" }),
      item("b", [0.1, 0.9], { category: "intent" }),
      item("b", [0.1, 0.9]),
    ];
    expect(accuracyBy(outcomes, (o) => o.category)).toEqual({
      intent: { correct: 1, answered: 1, failed: 0, total: 1, accuracy: 1 },
      policy: { correct: 1, answered: 2, failed: 0, total: 2, accuracy: 0.5 },
    });
  });

  it("is null, not NaN, for no items", () => {
    expect(accuracy([])).toEqual({ correct: 0, answered: 0, failed: 0, total: 0, accuracy: null });
  });
});

describe("chance accuracy", () => {
  it("is the mean of 1 / options over the answered items: what picking at random would score", () => {
    const four = { optionIds: ["a", "b", "c", "d"] };
    const outcomes = [
      item("a", [0.9, 0.1]),
      item("a", [0.7, 0.1, 0.1, 0.1], four),
      item("b", null, { ...four, errorKind: "timeout" }),
    ];
    expect(chanceAccuracy(outcomes)).toBeCloseTo((1 / 2 + 1 / 4) / 2, 12);
    expect(evaluationMetrics(outcomes).chanceAccuracy).toBeCloseTo(0.375, 12);
  });

  it("is null without answered items", () => {
    expect(chanceAccuracy([item("a", null, { errorKind: "busy" })])).toBeNull();
  });
});

describe("confusion matrix", () => {
  it("puts answers in rows and chosen options in columns, with errors apart", () => {
    const matrix = confusionMatrix([
      item("a", [0.9, 0.1]),
      item("a", [0.3, 0.7]),
      item("b", [0.2, 0.8]),
      item("b", [0.2, 0.8]),
      item("b", null, { errorKind: "timeout" }),
    ]);
    expect(matrix.labels).toEqual(["a", "b"]);
    expect(matrix.counts).toEqual([
      [1, 1],
      [0, 2],
    ]);
    expect(matrix.unscored).toEqual({ b: 1 });
  });

  it("has a single row and column when every answer and prediction is the same class", () => {
    const matrix = confusionMatrix([item("a", [0.6, 0.4]), item("a", [0.7, 0.3])]);
    expect(matrix).toEqual({ by: "option", labels: ["a"], counts: [[2]], unscored: {}, topConfusions: [] });
  });

  it("uses option positions when the items do not share one option set, and lists the frequent confusions", () => {
    const own = (answer: string, optionIds: string[], probabilities: number[] | null) =>
      item(answer, probabilities, { optionIds });
    const matrix = confusionMatrix([
      own("yes", ["no", "yes"], [0.8, 0.2]),
      own("refund", ["refund", "deny", "escalate"], [0.1, 0.2, 0.7]),
      own("refund", ["refund", "deny", "escalate"], [0.1, 0.1, 0.8]),
      own("go", ["go", "stop"], [0.9, 0.1]),
      own("stop", ["go", "stop"], null),
    ]);
    expect(matrix.by).toBe("position");
    expect(matrix.labels).toEqual(["A", "B", "C"]);
    expect(matrix.counts).toEqual([
      [1, 0, 2],
      [1, 0, 0],
      [0, 0, 0],
    ]);
    expect(matrix.unscored).toEqual({ B: 1 });
    expect(matrix.topConfusions).toEqual([
      { answer: "refund", chosen: "escalate", count: 2 },
      { answer: "yes", chosen: "no", count: 1 },
    ]);
  });
});

describe("error details", () => {
  it("groups failed items by kind and by message with the numbers aside, listing the items", () => {
    const budget = (tokens: number) => `the decision has ${tokens} prompt tokens, at most 4096 are allowed`;
    const details = errorDetails([
      item("a", null, { itemId: "x1", errorKind: "rejected", errorMessage: budget(5782) }),
      item("a", null, { itemId: "x2", errorKind: "rejected", errorMessage: budget(4100) }),
      item("b", null, { itemId: "x3", errorKind: "timeout", errorMessage: "no answer within 60 s" }),
      item("a", [0.9, 0.1], { itemId: "x4" }),
    ]);
    expect(details).toEqual([
      { kind: "rejected", count: 2, messages: [{ message: budget(5782), count: 2, itemIds: ["x1", "x2"] }] },
      { kind: "timeout", count: 1, messages: [{ message: "no answer within 60 s", count: 1, itemIds: ["x3"] }] },
    ]);
  });
});

describe("Brier score", () => {
  it("sums squared errors over all options and averages over scored items", () => {
    // (0.2^2 + 0.2^2) = 0.08 and (0.6^2 + 0.6^2) = 0.72: mean 0.4.
    const outcomes = [item("a", [0.8, 0.2]), item("b", [0.6, 0.4]), item("a", null, { errorKind: "busy" })];
    expect(brierScore(outcomes)).toBeCloseTo(0.4, 12);
  });

  it("is 0 for certain right answers and 2 for certain wrong ones", () => {
    expect(brierScore([item("a", [1, 0])])).toBe(0);
    expect(brierScore([item("b", [1, 0])])).toBe(2);
    expect(brierScore([])).toBeNull();
  });
});

describe("calibration", () => {
  it("weights each bin's gap between accuracy and confidence by its share of items", () => {
    const result = calibration([item("a", [0.95, 0.05]), item("b", [0.95, 0.05]), item("a", [0.65, 0.35])]);
    // bin 9: 2 items, confidence 0.95, accuracy 0.5; bin 6: 1 item, confidence 0.65, accuracy 1.
    expect(result.ece).toBeCloseTo((2 / 3) * 0.45 + (1 / 3) * 0.35, 12);
    expect(result.bins[9]).toMatchObject({ count: 2, accuracy: 0.5 });
    expect(result.bins[9]?.meanConfidence).toBeCloseTo(0.95, 12);
    expect(result.bins[6]).toMatchObject({ count: 1, accuracy: 1 });
  });

  it("reports empty bins with a zero count and no accuracy instead of skipping or dividing by zero", () => {
    const result = calibration([item("a", [1, 0])], 5);
    expect(result.bins).toHaveLength(5);
    expect(result.bins.slice(0, 4).every((bin) => bin.count === 0 && bin.accuracy === null)).toBe(true);
    expect(result.bins[4]).toEqual({ lower: 0.8, upper: 1, count: 1, meanConfidence: 1, accuracy: 1 });
    expect(result.ece).toBe(0);
  });

  it("puts a two-way tie at 0.5 into the bin that starts at 0.5", () => {
    const result = calibration([item("a", [0.5, 0.5])]);
    expect(result.bins[5]?.count).toBe(1);
  });

  it("has no ECE without scored items", () => {
    expect(calibration([item("a", null, { errorKind: "busy" })]).ece).toBeNull();
  });
});

describe("latency", () => {
  it("uses nearest-rank quantiles: always an observed value", () => {
    expect(latencySummary([40, 10, 30, 20])).toEqual({ count: 4, p50: 20, p95: 40, p99: 40, mean: 25, max: 40 });
    expect(nearestRankQuantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95)).toBe(10);
    expect(nearestRankQuantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.5)).toBe(5);
  });

  it("returns the only sample for every quantile of one, and nulls for none", () => {
    expect(latencySummary([7])).toMatchObject({ p50: 7, p95: 7, p99: 7 });
    expect(latencySummary([])).toEqual({ count: 0, p50: null, p95: null, p99: null, mean: null, max: null });
  });

  it("bins from zero to the slowest call, the slowest landing in the last bin", () => {
    expect(latencyHistogram([0, 5, 10], 2)).toEqual([
      { lower: 0, upper: 5, count: 1 },
      { lower: 5, upper: 10, count: 2 },
    ]);
    expect(latencyHistogram([])).toEqual([]);
  });
});

describe("error counts", () => {
  it("counts failed items by kind, most frequent first", () => {
    const outcomes = [
      item("a", null, { errorKind: "timeout" }),
      item("a", null, { errorKind: "busy" }),
      item("a", null, { errorKind: "busy" }),
      item("a", [1, 0]),
    ];
    expect(Object.entries(errorCounts(outcomes))).toEqual([
      ["busy", 2],
      ["timeout", 1],
    ]);
  });
});

describe("coverage against accuracy", () => {
  const outcomes = [
    item("a", [0.9, 0.1]),
    item("b", [0.8, 0.2]),
    item("a", [0.8, 0.2]),
    item("a", [0.6, 0.4]),
    item("a", null, { errorKind: "busy" }),
  ];

  it("has one point per distinct confidence, tied confidences entering together", () => {
    const curve = coverageCurve(outcomes);
    expect(curve.map((p) => [p.threshold, p.coverage, p.covered])).toEqual([
      [0.6, 1, 4],
      [0.8, 0.75, 3],
      [0.9, 0.25, 1],
    ]);
    expect(curve.map((p) => p.accuracy)).toEqual([0.75, 2 / 3, 1]);
  });

  it("picks the smallest threshold that meets the target accuracy", () => {
    const curve = coverageCurve(outcomes);
    expect(thresholdForAccuracy(curve, 0.7)?.threshold).toBe(0.6);
    expect(thresholdForAccuracy(curve, 0.8)?.threshold).toBe(0.9);
    expect(thresholdForAccuracy(curve, 1.01)).toBeNull();
  });
});

describe("temperature fit", () => {
  // Four items with logits [2, 0], three answered "a": the best probability for "a" is 0.75, so
  // sigmoid(2 / T) = 0.75 and T = 2 / ln 3.
  const logits = [2, 0];
  const probabilities = softmax(logits);
  const outcomes = ["a", "a", "a", "b"].map((answer) => item(answer, probabilities, { logits }));

  it("finds the temperature that minimises log-loss", () => {
    const fit = fitTemperature(outcomes);
    expect(fit?.temperature).toBeCloseTo(2 / Math.log(3), 5);
    expect(fit?.logLossAfter).toBeLessThan(fit?.logLossBefore as number);
    expect(fit?.items).toBe(4);
    expect(fit?.atLimit).toBeNull();
  });

  it("reports ECE before (confidence 0.881 against accuracy 0.75) and after (0)", () => {
    const fit = fitTemperature(outcomes);
    expect(fit?.eceBefore).toBeCloseTo(1 / (1 + Math.exp(-2)) - 0.75, 6);
    expect(fit?.eceAfter).toBeCloseTo(0, 5);
  });

  it("gives the same temperature from probabilities alone", () => {
    const withoutLogits = outcomes.map((outcome) => ({ ...outcome, logits: null }));
    expect(fitTemperature(withoutLogits)?.temperature).toBeCloseTo(2 / Math.log(3), 5);
  });

  it("sharpens to the lower bound when every answer is right (a single class)", () => {
    const fit = fitTemperature([item("a", probabilities, { logits }), item("a", probabilities, { logits })]);
    expect(fit?.temperature).toBeCloseTo(0.05, 3);
    expect(fit?.atLimit).toBe("lowest");
  });

  it("says the fit stopped at the highest temperature when the scores carry no sign of being right", () => {
    // The same scores for a right and a wrong answer: the flattest probabilities fit best, past any bound.
    const fit = fitTemperature([item("a", probabilities, { logits }), item("b", probabilities, { logits })]);
    expect(fit?.temperature).toBeCloseTo(20, 3);
    expect(fit?.atLimit).toBe("highest");
  });

  it("is null with nothing scored", () => {
    expect(fitTemperature([item("a", null, { errorKind: "busy" })])).toBeNull();
  });

  it("checks the fit on items it did not see, and finds an overconfident model's fit improves them", () => {
    // Each half (alternate items) is three "a" to one "b", as the whole: a temperature fitted on one half fits the other.
    const answers = [..."aaaaaabbaaaaaabb"];
    const fit = fitTemperature(answers.map((answer) => item(answer, probabilities, { logits })));
    expect(fit?.heldOut).toMatchObject({ items: 16, improves: true });
    expect(fit?.heldOut?.logLossAfter).toBeLessThan(fit?.heldOut?.logLossBefore as number);
    expect(fit?.heldOut?.eceAfter).toBeCloseTo(0, 5);
  });

  it("finds a fit that makes held-out items worse when its halves disagree", () => {
    // The even items are all "a" (the fit sharpens), the odd ones half "b" (the fit flattens): each half's
    // temperature is wrong for the other, though the fit over all items lowers its own log-loss.
    const answers = [..."aaabaaabaaab"];
    const fit = fitTemperature(answers.map((answer) => item(answer, probabilities, { logits })));
    expect(fit?.logLossAfter).toBeLessThan(fit?.logLossBefore as number);
    expect(fit?.heldOut?.improves).toBe(false);
    expect(fit?.heldOut?.logLossAfter).toBeGreaterThan(fit?.heldOut?.logLossBefore as number);
  });

  it("makes no held-out check with too few items to split", () => {
    expect(fitTemperature(outcomes)?.heldOut).toBeNull();
  });
});

describe("all metrics of a run", () => {
  it("measures latency over successful calls only and finds the target threshold", () => {
    const metrics = evaluationMetrics(
      [
        item("a", [0.9, 0.1], { latencyMs: 100, tier: "easy" }),
        item("b", [0.3, 0.7], { latencyMs: 300, tier: "hard" }),
        item("b", null, { latencyMs: 5000, errorKind: "busy", tier: "hard" }),
      ],
      0.95,
    );
    expect(metrics.latency).toMatchObject({ count: 2, p50: 100, p95: 300 });
    expect(metrics.byTier.hard).toEqual({ correct: 1, answered: 1, failed: 1, total: 2, accuracy: 1 });
    expect(metrics.threshold.point?.threshold).toBe(0.7);
    expect(metrics.errors).toEqual({ busy: 1 });
  });
});
