import { expect, it } from "vitest";
import { evaluationSummarySchema } from "../../../contract/evaluate/evaluations.ts";
import { describeOnStores } from "../../../tests/support/store/test-stores.ts";
import { createDataset } from "../datasets/dataset-store.ts";
import type { LabelledDecision } from "../datasets/labelled-decision.ts";
import { createRun, recordResult } from "./run-store.ts";
import { evaluationDetail, evaluationSummaries } from "./run-view.ts";

const items: LabelledDecision[] = ["yes", "no", "yes", "no"].map((answer, i) => ({
  decision: {
    id: `item-${i}`,
    state: "state",
    question: "Refund?",
    options: [
      { id: "no", description: "No" },
      { id: "yes", description: "Yes" },
    ],
  },
  answer,
  category: null,
  tier: null,
}));

describeOnStores("the evaluations list", (current) => {
  it("carries each endpoint's accuracy so far over its answered items, with its failed items beside it, as the run's page does", async () => {
    const { store } = current();
    const dataset = await createDataset(store, { name: "four", source: "upload", format: "jsonl", items });
    const run = await createRun(store, {
      datasetId: dataset.id,
      endpoints: ["a", "b"],
      concurrency: 1,
      targetAccuracy: 0.8,
    });
    const result = (slot: number, position: number, probabilities: number[] | null) =>
      recordResult(store, {
        runId: run.id,
        slot,
        position,
        itemId: `item-${position}`,
        optionIds: ["no", "yes"],
        probabilities,
        logits: null,
        chosen: probabilities ? (probabilities[0]! >= probabilities[1]! ? "no" : "yes") : null,
        latencyMs: 10,
        adapterMs: null,
        attempts: 1,
        errorKind: probabilities ? null : "server_error",
        errorMessage: probabilities ? null : "boom",
        finishedAt: new Date().toISOString(),
      });
    // a: right, right, wrong; b: right, failed.
    await result(0, 0, [0.2, 0.8]);
    await result(0, 1, [0.9, 0.1]);
    await result(0, 2, [0.7, 0.3]);
    await result(1, 0, [0.1, 0.9]);
    await result(1, 1, null);

    const [summary] = await evaluationSummaries(store);
    expect(summary?.accuracy).toEqual([
      { endpointName: "a", correct: 2, answered: 3, failed: 0, total: 3, accuracy: 2 / 3 },
      { endpointName: "b", correct: 1, answered: 1, failed: 1, total: 2, accuracy: 1 },
    ]);
    expect(evaluationSummarySchema.parse(summary)).toEqual(summary);
    const detail = await evaluationDetail(store, run.id);
    expect(detail?.results.map((r) => r.metrics.accuracy)).toEqual(
      summary?.accuracy.map(({ endpointName: _, ...cell }) => cell),
    );
  });

  it("has no accuracy for an endpoint with no finished item", async () => {
    const { store } = current();
    const dataset = await createDataset(store, { name: "four", source: "upload", format: "jsonl", items });
    await createRun(store, { datasetId: dataset.id, endpoints: ["a"], concurrency: 1, targetAccuracy: 0.8 });
    expect((await evaluationSummaries(store))[0]?.accuracy).toEqual([
      { endpointName: "a", correct: 0, answered: 0, failed: 0, total: 0, accuracy: null },
    ]);
  });

  it("prices each endpoint's decisions per 1,000 from its instances and its mean latency at the run's concurrency", async () => {
    const { store } = current();
    const dataset = await createDataset(store, { name: "four", source: "upload", format: "jsonl", items });
    const run = await createRun(store, {
      datasetId: dataset.id,
      endpoints: ["gpu", "unknown"],
      configurations: ["ml.g6e.xlarge, all layers on GPU", null],
      concurrency: 2,
      targetAccuracy: 0.8,
    });
    for (const [slot, latencyMs] of [
      [0, 300],
      [0, 404],
      [1, 300],
    ] as const) {
      await recordResult(store, {
        runId: run.id,
        slot,
        position: latencyMs === 404 ? 1 : 0,
        itemId: latencyMs === 404 ? "item-1" : "item-0",
        optionIds: ["no", "yes"],
        probabilities: [0.2, 0.8],
        logits: null,
        chosen: "yes",
        latencyMs,
        adapterMs: null,
        attempts: 1,
        errorKind: null,
        errorMessage: null,
        finishedAt: new Date().toISOString(),
      });
    }
    const detail = await evaluationDetail(store, run.id);
    // Mean 352 ms, two in flight: 2 * 3,600 / 0.352 = 20,455 decisions an hour at $2.336.
    expect(detail?.results[0]?.cost).toEqual({
      hourlyPriceUsd: 2.336,
      perThousandUsd: expect.closeTo((2.336 * 0.352 * 1000) / 3600 / 2, 12),
    });
    expect(detail?.results[1]?.cost).toEqual({ hourlyPriceUsd: null, perThousandUsd: null });
  });
});
