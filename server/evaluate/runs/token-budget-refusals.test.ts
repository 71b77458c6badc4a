import { expect, it } from "vitest";
import { describeOnStores } from "../../../tests/support/store/test-stores.ts";
import type { Store } from "../../store/store.ts";
import { createDataset } from "../datasets/dataset-store.ts";
import type { LabelledDecision } from "../datasets/labelled-decision.ts";
import { createRun, recordResult } from "./run-store.ts";
import { tokenBudgetRefusals } from "./token-budget-refusals.ts";

const items: LabelledDecision[] = Array.from({ length: 6 }, (_, i) => ({
  decision: {
    id: `q${i}`,
    state: "s",
    question: "q?",
    options: [
      { id: "a", description: "A" },
      { id: "b", description: "B" },
    ],
  },
  answer: "a",
  category: null,
  tier: null,
}));

/** The adapter's refusal of a decision whose prompt is over the request budget (decision-scorer.ts). */
const overBudget = (tokens: number) =>
  `decisions exceeds the request token budget: decisions[0] has ${tokens} prompt tokens, at most 2048 per decision (maxRequestTokens 2048 / 1 decision)`;

describeOnStores("items an endpoint refused as over its token budget", (current) => {
  function result(
    store: Store,
    runId: string,
    slot: number,
    position: number,
    error?: { kind: string; message: string },
  ) {
    return recordResult(store, {
      runId,
      slot,
      position,
      itemId: `q${position}`,
      optionIds: error ? null : ["a", "b"],
      probabilities: error ? null : [0.6, 0.4],
      logits: null,
      chosen: error ? null : "a",
      latencyMs: 10,
      adapterMs: null,
      attempts: 1,
      errorKind: error?.kind ?? null,
      errorMessage: error?.message ?? null,
      finishedAt: new Date().toISOString(),
    });
  }

  it("counts, per endpoint, the latest evaluation's refusals in the adapter's token-budget words only", async () => {
    const { store } = current();
    const dataset = await createDataset(store, { name: "set", source: "upload", format: "jsonl", items });
    const run = await createRun(store, {
      datasetId: dataset.id,
      endpoints: ["dc-cpu", "dc-wide"],
      concurrency: 1,
      targetAccuracy: 0.8,
    });
    await result(store, run.id, 0, 0);
    await result(store, run.id, 0, 1, { kind: "rejected", message: overBudget(5782) });
    await result(store, run.id, 0, 2, { kind: "rejected", message: "decision.options: must list at least 2 options" });
    await result(store, run.id, 0, 3, { kind: "timeout", message: "request budget" });
    await result(store, run.id, 0, 4, { kind: "rejected", message: overBudget(4100) });
    for (const position of [0, 1, 2, 3, 4, 5]) await result(store, run.id, 1, position);
    expect(await tokenBudgetRefusals(store, dataset.id)).toEqual([
      { endpointName: "dc-cpu", count: 2, itemIds: ["q1", "q4"], evaluationId: run.id, evaluatedAt: run.created_at },
    ]);
  });

  it("has nothing to say about a dataset never evaluated", async () => {
    const { store } = current();
    const dataset = await createDataset(store, { name: "fresh", source: "upload", format: "jsonl", items });
    expect(await tokenBudgetRefusals(store, dataset.id)).toEqual([]);
  });
});
