import { expect, it } from "vitest";
import { scoredRun } from "../../tests/support/evaluate/scored-run.ts";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import type { Store } from "../store/store.ts";
import {
  chooseEvaluation,
  linkVersionEvaluation,
  newestEvaluationLink,
  recordEvaluationLink,
} from "./evaluation-link.ts";

const ENDPOINT = "dc-linked";

const runOf = (store: Store, endpoints: string[], status: "running" | "completed" = "completed") =>
  scoredRun(store, {
    endpoints,
    question: "Urgent?",
    options: ["y", "n"],
    answers: ["y"],
    probabilities: [0.8, 0.2],
    status,
  });

describeOnStores("an endpoint's evaluation link", (current) => {
  it("is the newest one recorded, and none before any", async () => {
    const { store } = current();
    expect(await newestEvaluationLink(store, ENDPOINT)).toBeNull();
    await recordEvaluationLink(
      store,
      ENDPOINT,
      "run-a",
      { why: "deployed", by: "ann" },
      new Date("2026-12-01T00:00:00Z"),
    );
    await recordEvaluationLink(store, "dc-other", "run-x", { why: "chosen", by: "bob" });
    await recordEvaluationLink(
      store,
      ENDPOINT,
      "run-b",
      { why: "promoted", by: "cid" },
      new Date("2026-12-02T00:00:00Z"),
    );
    expect(await newestEvaluationLink(store, ENDPOINT)).toEqual({
      endpointName: ENDPOINT,
      runId: "run-b",
      why: "promoted",
      by: "cid",
      at: "2026-12-02T00:00:00.000Z",
    });
  });

  it("follows a registry version only when an evaluation is attached to it", async () => {
    const { store } = current();
    await recordEvaluationLink(store, ENDPOINT, "run-a", { why: "deployed", by: "ann" });
    expect(
      await linkVersionEvaluation(store, ENDPOINT, { evaluation: null }, { why: "updated", by: "bob" }),
    ).toBeNull();
    expect(await newestEvaluationLink(store, ENDPOINT)).toMatchObject({ runId: "run-a", why: "deployed" });
  });

  it("is an operator's choice of a completed run of the endpoint", async () => {
    const { store } = current();
    const runId = await runOf(store, ["dc-other", ENDPOINT]);
    const chosen = await chooseEvaluation(store, ENDPOINT, runId, "ops");
    expect(chosen).toMatchObject({ endpointName: ENDPOINT, runId, why: "chosen", by: "ops" });
    expect(await newestEvaluationLink(store, ENDPOINT)).toEqual(chosen);
  });

  it("refuses a run that does not exist, one of other endpoints and one not completed, and records nothing", async () => {
    const { store } = current();
    await expect(chooseEvaluation(store, ENDPOINT, "no-such-run", "ops")).rejects.toMatchObject({
      status: 404,
      message: expect.stringContaining("no evaluation run no-such-run"),
    });
    const others = await runOf(store, ["dc-other"]);
    await expect(chooseEvaluation(store, ENDPOINT, others, "ops")).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining(`scored dc-other, not endpoint "${ENDPOINT}"`),
    });
    const running = await runOf(store, [ENDPOINT], "running");
    await expect(chooseEvaluation(store, ENDPOINT, running, "ops")).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("is running; choose a completed run"),
    });
    expect(await newestEvaluationLink(store, ENDPOINT)).toBeNull();
  });
});
