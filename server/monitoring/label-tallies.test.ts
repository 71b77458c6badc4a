import { quantileOf } from "@decision-console/adapter/contract";
import { expect, it } from "vitest";
import { seededRandom } from "../../tests/support/monitoring/capture-traffic.ts";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import { brierScore } from "../evaluate/metrics/brier.ts";
import { calibration } from "../evaluate/metrics/calibration.ts";
import { decisionKind } from "./capture-record.ts";
import { type DecisionLabel, decisionsByInferenceId, storeDecisionLabels } from "./ground-truth-store.ts";
import { labelTallies } from "./label-tallies.ts";
import { type LocatedDecision, recordCaptureObject } from "./monitoring-store.ts";
import { accuracyAtThreshold, type LabelledOutcome, outcomesOf } from "./realised-quality.ts";

const ENDPOINT = "dc-tallied";
const HOUR = 3_600_000;
const FROM = Date.parse("2026-12-06T00:00:00Z");
const WINDOW = { fromMs: FROM, toMs: FROM + 24 * HOUR, intervalMs: HOUR };
const THRESHOLD = 0.55;
const KINDS = [
  { question: "Which team?", options: ["billing", "support", "sales"] },
  { question: "Refund?", options: ["yes", "no"] },
];
const DECISIONS = 600;

/** A decision of either kind at a random time from an hour before the window to an hour after, on either variant. */
function decisionsOf(random: () => number) {
  return Array.from({ length: DECISIONS }, (_, i) => {
    const { question, options } = KINDS[i % 2]!;
    const weights = options.map(() => random() + 0.05);
    const sum = weights.reduce((a, b) => a + b, 0);
    const probabilities = weights.map((weight) => weight / sum);
    // Every tenth decision ties its two first options, where the first listed is the one chosen.
    if (i % 10 === 0) probabilities[1] = probabilities[0]!;
    const top = Math.max(...probabilities);
    const decision: LocatedDecision = {
      at: new Date(FROM - HOUR + Math.floor(random() * 26 * HOUR)),
      eventId: `e${i}`,
      inferenceId: `inf-${i}`,
      item: 0,
      inputKey: `k${i}`,
      decisionId: `d${i}`,
      kind: decisionKind(question, options),
      question,
      options,
      chosen: options[probabilities.indexOf(top)]!,
      topProbability: top,
      probabilities,
      latencyMs: null,
      line: i,
    };
    return { decision, variant: i % 7 === 0 ? "Shadow" : "AllTraffic" };
  });
}

describeOnStores("label tallies", (current) => {
  it("sum in the store to what the evaluation's metrics recount from the labels themselves", async () => {
    const { store } = current();
    const random = seededRandom(7);
    const decisions = decisionsOf(random);
    for (const variant of ["AllTraffic", "Shadow"]) {
      await recordCaptureObject(store, {
        endpointName: ENDPOINT,
        key: `data-capture/${ENDPOINT}/${variant}/2026/12/06/00/00-00-000-${variant}.jsonl`,
        variant,
        records: DECISIONS,
        unreadable: 0,
        decisions: decisions.filter((entry) => entry.variant === variant).map((entry) => entry.decision),
      });
    }
    // Four in five decisions labelled, a random option each, learnt up to two days later.
    const labelled = decisions.filter(() => random() < 0.8);
    const found = await decisionsByInferenceId(
      store,
      ENDPOINT,
      labelled.map(({ decision }) => decision.inferenceId ?? ""),
    );
    const labels: DecisionLabel[] = labelled.flatMap(({ decision }) =>
      (found.get(decision.inferenceId ?? "") ?? []).map((target) => ({
        decision: target,
        label: decision.options[Math.floor(random() * decision.options.length)]!,
        labelledAtMs: decision.at.getTime() + Math.floor(random() * 48 * HOUR),
        source: "test",
      })),
    );
    await storeDecisionLabels(store, ENDPOINT, labels);

    const tallies = await labelTallies(store, ENDPOINT, ["AllTraffic"], WINDOW, THRESHOLD);
    for (const { question, options } of KINDS) {
      const kind = decisionKind(question, options);
      const ofKind: LabelledOutcome[] = labels
        .filter(({ decision }) => decision.kind === kind && decision.variant === "AllTraffic")
        .filter(({ decision }) => decision.atMs >= WINDOW.fromMs && decision.atMs < WINDOW.toMs)
        .map(({ decision, label, labelledAtMs }) => ({
          atMs: decision.atMs,
          labelledAtMs,
          probabilities: decision.probabilities,
          label,
        }));
      const tally = tallies.get(kind);
      expect(ofKind.length).toBeGreaterThan(100);
      expect(tally).toBeDefined();
      for (let from = WINDOW.fromMs; from < WINDOW.toMs; from += WINDOW.intervalMs) {
        const inside = ofKind.filter((label) => label.atMs >= from && label.atMs < from + WINDOW.intervalMs);
        const recount = accuracyAtThreshold(outcomesOf(inside, options), THRESHOLD);
        expect(tally?.intervals.get(from) ?? { labelled: 0, correct: 0, covered: 0, coveredCorrect: 0 }).toEqual({
          labelled: recount.accuracy.labelled,
          correct: recount.accuracy.correct,
          covered: recount.atThreshold.labelled,
          coveredCorrect: recount.atThreshold.correct,
        });
      }
      const outcomes = outcomesOf(ofKind, options);
      const bins = calibration(outcomes).bins;
      expect(tally?.bins.map((bin) => [bin.count, bin.correct])).toEqual(
        bins.map((bin) => [bin.count, Math.round((bin.accuracy ?? 0) * bin.count)]),
      );
      tally?.bins.forEach((bin, i) => {
        expect(bin.confidence).toBeCloseTo((bins[i]?.meanConfidence ?? 0) * bin.count, 9);
      });
      expect((tally?.brierSum ?? 0) / (tally?.scored ?? 1)).toBeCloseTo(brierScore(outcomes) ?? Number.NaN, 12);
      const delays = ofKind.map((label) => Math.max(0, label.labelledAtMs - label.atMs) / 1000);
      expect(tally?.delay).toEqual({ p50Seconds: quantileOf(delays, 0.5), p90Seconds: quantileOf(delays, 0.9) });
    }
  });

  it("follow a corrected label and say nothing of a variant with no labels", async () => {
    const { store } = current();
    const [first] = decisionsOf(seededRandom(3));
    const decision = { ...first!.decision, at: new Date(FROM + 1000) };
    await recordCaptureObject(store, {
      endpointName: ENDPOINT,
      key: `data-capture/${ENDPOINT}/AllTraffic/2026/12/06/00/00-00-000-a.jsonl`,
      variant: "AllTraffic",
      records: 1,
      unreadable: 0,
      decisions: [decision],
    });
    const [target] = (await decisionsByInferenceId(store, ENDPOINT, ["inf-0"])).get("inf-0") ?? [];
    const wrong = decision.options.find((option) => option !== decision.chosen)!;
    await storeDecisionLabels(store, ENDPOINT, [
      { decision: target!, label: wrong, labelledAtMs: FROM + 2000, source: "test" },
    ]);
    const before = await labelTallies(store, ENDPOINT, ["AllTraffic"], WINDOW, 0);
    expect(before.get(decision.kind)?.intervals.get(FROM)).toEqual({
      labelled: 1,
      correct: 0,
      covered: 1,
      coveredCorrect: 0,
    });
    await storeDecisionLabels(store, ENDPOINT, [
      { decision: target!, label: decision.chosen, labelledAtMs: FROM + 61_000, source: "test" },
    ]);
    const after = await labelTallies(store, ENDPOINT, ["AllTraffic"], WINDOW, 0);
    expect(after.get(decision.kind)?.intervals.get(FROM)).toEqual({
      labelled: 1,
      correct: 1,
      covered: 1,
      coveredCorrect: 1,
    });
    expect(after.get(decision.kind)?.delay).toEqual({ p50Seconds: 60, p90Seconds: 60 });
    expect((await labelTallies(store, ENDPOINT, ["Shadow"], WINDOW, 0)).size).toBe(0);
  });
});
