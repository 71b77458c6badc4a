import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { evaluationSummarySchema } from "../../../contract/evaluate/evaluations.ts";
import { type Db, openDatabase } from "../../store/database.ts";
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

describe("the evaluations list", () => {
  let dir: string;
  let db: Db;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "run-summary-"));
    db = openDatabase(path.join(dir, "console.db"));
  });
  afterEach(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("carries each endpoint's accuracy so far, counting failed items as wrong, as the run's page does", () => {
    const dataset = createDataset(db, { name: "four", source: "upload", format: "jsonl", items });
    const run = createRun(db, { datasetId: dataset.id, endpoints: ["a", "b"], concurrency: 1, targetAccuracy: 0.8 });
    const result = (slot: number, position: number, probabilities: number[] | null) =>
      recordResult(db, {
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
    result(0, 0, [0.2, 0.8]);
    result(0, 1, [0.9, 0.1]);
    result(0, 2, [0.7, 0.3]);
    result(1, 0, [0.1, 0.9]);
    result(1, 1, null);

    const [summary] = evaluationSummaries(db);
    expect(summary?.accuracy).toEqual([
      { endpointName: "a", correct: 2, total: 3, accuracy: 2 / 3 },
      { endpointName: "b", correct: 1, total: 2, accuracy: 0.5 },
    ]);
    expect(evaluationSummarySchema.parse(summary)).toEqual(summary);
    const detail = evaluationDetail(db, run.id);
    expect(detail?.results.map((r) => r.metrics.accuracy)).toEqual(
      summary?.accuracy.map(({ correct, total, accuracy }) => ({ correct, total, accuracy })),
    );
  });

  it("has no accuracy for an endpoint with no finished item", () => {
    const dataset = createDataset(db, { name: "four", source: "upload", format: "jsonl", items });
    createRun(db, { datasetId: dataset.id, endpoints: ["a"], concurrency: 1, targetAccuracy: 0.8 });
    expect(evaluationSummaries(db)[0]?.accuracy).toEqual([{ endpointName: "a", correct: 0, total: 0, accuracy: null }]);
  });
});
