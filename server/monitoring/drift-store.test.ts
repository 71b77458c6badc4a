import { beforeEach, expect, it } from "vitest";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import { createDataset } from "../evaluate/datasets/dataset-store.ts";
import { createRun, recordResult } from "../evaluate/runs/run-store.ts";
import { decisionKind } from "./capture-record.ts";
import { currentDrift } from "./drift.ts";
import {
  allBaselines,
  baselineWindowEnd,
  endpointBaselines,
  setBaselineFromEvaluationRun,
  setBaselineFromWindow,
} from "./drift-store.ts";
import { type LocatedDecision, recordCaptureObject } from "./monitoring-store.ts";

const ENDPOINT = "dc-baselined";
const QUESTION = "Refund?";
const OPTIONS = ["yes", "no"];
const KIND = decisionKind(QUESTION, OPTIONS);
const T0 = Date.parse("2026-12-04T10:00:00Z");

function decision(i: number, atMs: number, chosen: "yes" | "no", top: number): LocatedDecision {
  return {
    at: new Date(atMs),
    eventId: `e${i}`,
    inferenceId: null,
    item: 0,
    inputKey: `k${i}`,
    decisionId: `d${i}`,
    kind: KIND,
    question: QUESTION,
    options: OPTIONS,
    chosen,
    topProbability: top,
    probabilities: chosen === "yes" ? [top, 1 - top] : [1 - top, top],
    latencyMs: null,
    line: i,
  };
}

describeOnStores("drift baselines", (current) => {
  beforeEach(async () => {
    await recordCaptureObject(current().store, {
      endpointName: ENDPOINT,
      key: "data-capture/dc-baselined/AllTraffic/a.jsonl",
      variant: "AllTraffic",
      records: 4,
      unreadable: 0,
      decisions: [
        decision(0, T0 + 1_000, "yes", 0.9),
        decision(1, T0 + 61_000, "yes", 0.62),
        decision(2, T0 + 121_000, "no", 0.51),
        // Outside the window below.
        decision(3, T0 + 3_600_000, "no", 0.99),
      ],
    });
  });

  it("come from a capture window's rollups, in twentieths of the top probability", async () => {
    const { store } = current();
    const now = new Date(T0 + 7_200_000);
    const baseline = await setBaselineFromWindow(store, ENDPOINT, KIND, T0, T0 + 600_000, "ops", now);
    expect(baseline.optionCounts).toEqual([2, 1]);
    expect(baseline.decisions).toBe(3);
    const bins = new Array(20).fill(0);
    bins[18] = 1; // 0.90
    bins[12] = 1; // 0.62
    bins[10] = 1; // 0.51
    expect(baseline.topBins).toEqual(bins);
    expect(baseline.source).toBe("capture window 2026-12-04T10:00:00.000Z..2026-12-04T10:10:00.000Z");
    expect(await endpointBaselines(store, ENDPOINT)).toEqual([baseline]);
    expect(await endpointBaselines(store, "dc-other")).toEqual([]);
    expect(await allBaselines(store)).toEqual([baseline]);
  });

  it("are not compared with their own window: the hour compared starts at the baseline's end", async () => {
    const { store } = current();
    const baseline = await setBaselineFromWindow(
      store,
      ENDPOINT,
      KIND,
      T0,
      T0 + 600_000,
      "ops",
      new Date(T0 + 7_200_000),
    );
    expect(baselineWindowEnd(baseline)).toBe(T0 + 600_000);
    // Twenty minutes after the window's start, the last hour would hold the baseline's own three decisions.
    const early = await currentDrift(store, baseline, new Date(T0 + 1_200_000));
    expect(early).toMatchObject({ from: new Date(T0 + 600_000).toISOString(), decisions: 0, optionMix: null });
    // An hour and ten minutes on, the compared hour holds only the later decision.
    const later = await currentDrift(store, baseline, new Date(T0 + 4_200_000));
    expect(later.decisions).toBe(1);
  });

  it("refuse a window without decisions of the kind and a kind the endpoint never captured", async () => {
    const { store } = current();
    await expect(setBaselineFromWindow(store, ENDPOINT, KIND, T0 - 600_000, T0, "ops")).rejects.toThrow(/no decisions/);
    await expect(setBaselineFromWindow(store, ENDPOINT, "0000000000000000", T0, T0 + 600_000, "ops")).rejects.toThrow(
      /no decisions of kind/,
    );
  });

  it("come from an evaluation run's scored items with the same question and options only", async () => {
    const { store } = current();
    const items = [
      { question: QUESTION, options: OPTIONS, probabilities: [0.8, 0.2] },
      { question: QUESTION, options: OPTIONS, probabilities: [0.3, 0.7] },
      { question: QUESTION, options: OPTIONS, probabilities: [0.96, 0.04] },
      // Another kind: another question.
      { question: "Escalate?", options: OPTIONS, probabilities: [0.5, 0.5] },
    ];
    const dataset = await createDataset(store, {
      name: "refunds",
      source: "upload",
      format: "jsonl",
      items: items.map((item, i) => ({
        decision: {
          id: `i${i}`,
          state: "s",
          question: item.question,
          options: item.options.map((id) => ({ id, description: id })),
        },
        answer: "yes",
        category: null,
        tier: null,
      })),
    });
    const run = await createRun(store, {
      datasetId: dataset.id,
      endpoints: [ENDPOINT],
      concurrency: 1,
      targetAccuracy: 0.9,
    });
    for (const [position, item] of items.entries()) {
      await recordResult(store, {
        runId: run.id,
        slot: 0,
        position,
        itemId: `i${position}`,
        optionIds: item.options,
        probabilities: item.probabilities,
        logits: null,
        chosen: null,
        latencyMs: 10,
        adapterMs: null,
        attempts: 1,
        errorKind: null,
        errorMessage: null,
        finishedAt: new Date(T0).toISOString(),
      });
    }
    const baseline = await setBaselineFromEvaluationRun(store, ENDPOINT, KIND, run.id, "ops");
    expect(baseline.source).toBe(`evaluation run ${run.id}`);
    expect(baseline.optionCounts).toEqual([2, 1]);
    expect(baseline.decisions).toBe(3);
    const bins = new Array(20).fill(0);
    bins[16] = 1; // 0.80
    bins[14] = 1; // 0.70
    bins[19] = 1; // 0.96
    expect(baseline.topBins).toEqual(bins);
    await expect(setBaselineFromEvaluationRun(store, ENDPOINT, KIND, "no-such-run", "ops")).rejects.toThrow(
      /no evaluation run/,
    );
  });
});
