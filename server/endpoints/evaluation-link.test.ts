import { expect, it } from "vitest";
import type { VersionEvaluation } from "../../contract/models/model-registry.ts";
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
const V1 = "arn:aws:sagemaker:us-east-1:111122223333:model-package/dc-triage/1";
const V2 = "arn:aws:sagemaker:us-east-1:111122223333:model-package/dc-triage/2";

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
      await linkVersionEvaluation(store, ENDPOINT, { arn: V2, evaluation: null }, { why: "updated", by: "bob" }),
    ).toBeNull();
    expect(await newestEvaluationLink(store, ENDPOINT)).toMatchObject({ runId: "run-a", why: "deployed" });
  });

  it("stands while the endpoint serves the version it came with: a rolled-back update's link is passed over", async () => {
    const { store } = current();
    const attached = (runId: string): VersionEvaluation => ({
      runId,
      target: ENDPOINT,
      datasetName: "tickets",
      datasetSha256: "0".repeat(64),
      items: 231,
      accuracy: 0.8,
      brier: 0.3,
      ece: 0.05,
      p50Ms: 40,
      p95Ms: 90,
      errors: 0,
      reportUrl: `s3://bucket/evaluations/${runId}.json`,
      attachedAt: "2026-12-01T00:00:00.000Z",
    });
    await linkVersionEvaluation(
      store,
      ENDPOINT,
      { arn: V1, evaluation: attached("run-1") },
      { why: "deployed", by: "ann" },
    );
    await linkVersionEvaluation(
      store,
      ENDPOINT,
      { arn: V2, evaluation: attached("run-2") },
      { why: "updated", by: "bob" },
    );
    expect(await newestEvaluationLink(store, ENDPOINT, V2)).toMatchObject({ runId: "run-2", why: "updated" });
    // SageMaker rolled the update back: the endpoint serves version 1 again, and is compared with its evaluation.
    expect(await newestEvaluationLink(store, ENDPOINT, V1)).toMatchObject({ runId: "run-1", why: "deployed" });
    // A model made from an image and model data has no version's evaluation; an operator's choice stands for any.
    expect(await newestEvaluationLink(store, ENDPOINT, null)).toBeNull();
    await recordEvaluationLink(store, ENDPOINT, "run-c", { why: "chosen", by: "ops" });
    expect(await newestEvaluationLink(store, ENDPOINT, null)).toMatchObject({ runId: "run-c", why: "chosen" });
    expect(await newestEvaluationLink(store, ENDPOINT, V1)).toMatchObject({ runId: "run-c", why: "chosen" });
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
