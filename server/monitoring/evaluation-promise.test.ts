import { expect, it } from "vitest";
import { scoredRun } from "../../tests/support/evaluate/scored-run.ts";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import { recordEvaluationLink } from "../endpoints/evaluation-link.ts";
import type { Store } from "../store/store.ts";
import { decisionKind } from "./capture-record.ts";
import { comparedRuns, firstEvaluationPromise } from "./evaluation-promise.ts";

const ENDPOINT = "dc-compared";
const OPTIONS = ["yes", "no"];
const REFUND = decisionKind("Refund?", OPTIONS);
const ESCALATE = decisionKind("Escalate?", OPTIONS);

/** A completed run of the endpoint on `total` items of one question, the first `correct` of them answered right. */
const runOn = (store: Store, question: string, correct: number, total: number) =>
  scoredRun(store, {
    endpoints: [ENDPOINT],
    question,
    options: OPTIONS,
    answers: Array.from({ length: total }, (_, i) => (i < correct ? "yes" : "no")),
    probabilities: [0.9, 0.1],
  });

/** A drift baseline of the refund kind set from `runId`, as drift-store writes one. */
async function baselineFrom(store: Store, runId: string) {
  await store
    .insertInto("drift_baselines")
    .values({
      endpoint_name: ENDPOINT,
      kind: REFUND,
      question: "Refund?",
      options: JSON.stringify(OPTIONS),
      option_counts: "[1,0]",
      top_bins: "[]",
      decisions: 1,
      source: `evaluation run ${runId}`,
      set_by: "drift-ops",
      set_at: "2026-12-01T00:00:00.000Z",
    })
    .execute();
}

describeOnStores("the evaluation realised quality is compared with", (current) => {
  it("is the endpoint's newest link, with why, by whom and when", async () => {
    const { store } = current();
    const baseline = await runOn(store, "Refund?", 150, 200);
    const deployedWith = await runOn(store, "Refund?", 160, 200);
    const chosen = await runOn(store, "Refund?", 180, 200);
    await baselineFrom(store, baseline);
    await recordEvaluationLink(store, ENDPOINT, deployedWith, { why: "deployed", by: "ann" });
    await recordEvaluationLink(store, ENDPOINT, chosen, { why: "chosen", by: "bob" }, new Date("2026-12-05T00:00:00Z"));
    const runs = (await comparedRuns(store, ENDPOINT))(REFUND);
    const promise = await firstEvaluationPromise(store, ENDPOINT, REFUND, runs, 0.5);
    expect(promise).toMatchObject({
      runId: chosen,
      basis: { why: "chosen", by: "bob", at: "2026-12-05T00:00:00.000Z" },
      accuracy: { labelled: 200, correct: 180 },
    });
  });

  it("falls back to the drift baseline's run for a kind the linked run did not score, then to none", async () => {
    const { store } = current();
    const baseline = await runOn(store, "Refund?", 150, 200);
    const otherKind = await runOn(store, "Escalate?", 90, 100);
    await baselineFrom(store, baseline);
    await recordEvaluationLink(store, ENDPOINT, otherKind, { why: "updated", by: "ann" });
    const runsOf = await comparedRuns(store, ENDPOINT);
    expect(await firstEvaluationPromise(store, ENDPOINT, REFUND, runsOf(REFUND), 0.5)).toMatchObject({
      runId: baseline,
      basis: { why: "drift baseline", by: "drift-ops", at: "2026-12-01T00:00:00.000Z" },
      accuracy: { labelled: 200, correct: 150 },
    });
    expect(await firstEvaluationPromise(store, ENDPOINT, ESCALATE, runsOf(ESCALATE), 0.5)).toMatchObject({
      runId: otherKind,
      basis: { why: "updated", by: "ann" },
    });
    const unseen = decisionKind("Close?", OPTIONS);
    expect(await firstEvaluationPromise(store, ENDPOINT, unseen, runsOf(unseen), 0.5)).toBeNull();
  });

  it("is none for an endpoint without a link or a baseline", async () => {
    const { store } = current();
    expect((await comparedRuns(store, ENDPOINT))(REFUND)).toEqual([]);
  });
});
