import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { S3Client } from "@aws-sdk/client-s3";
import type { SageMakerClient } from "@aws-sdk/client-sagemaker";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { labelDecisionSchema, reviewQuerySchema } from "../../contract/endpoints/review.ts";
import { calibration } from "../evaluate/metrics/calibration.ts";
import { AppError } from "../http/app-error.ts";
import { type Db, openDatabase } from "../store/database.ts";
import { decisionKind } from "./capture-record.ts";
import { decisionInRecord } from "./captured-request.ts";
import { type LocatedDecision, recordCaptureObject } from "./monitoring-store.ts";
import { labelledAccuracy } from "./monitoring-summary.ts";
import { exportLabelsToDataset, labelDecision, shadowDisagreements } from "./review-queue.ts";
import { countUnlabelled, type KeyedDecision, storeLabel, unlabelledDecisions } from "./review-store.ts";

const ENDPOINT = "dc-review";
const OPTIONS = ["a", "b", "c"];
const KIND = decisionKind("Which?", OPTIONS);

let dir: string;
let db: Db;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "review-queue-"));
  db = openDatabase(path.join(dir, "console.db"));
});
afterEach(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const located = (line: number, probabilities: number[], atMs = 1_000 + line): LocatedDecision => {
  const top = Math.max(...probabilities);
  return {
    at: new Date(atMs),
    eventId: `e${line}`,
    inferenceId: null,
    item: 0,
    inputKey: `input-${line}`,
    decisionId: `d${line}`,
    kind: KIND,
    question: "Which?",
    options: OPTIONS,
    chosen: OPTIONS[probabilities.indexOf(top)] ?? "",
    topProbability: top,
    probabilities,
    latencyMs: 5,
    line,
  };
};

function record(variant: string, key: string, decisions: LocatedDecision[]) {
  recordCaptureObject(db, {
    endpointName: ENDPOINT,
    key,
    variant,
    records: decisions.length,
    unreadable: 0,
    decisions,
  });
}

const keyed = (decision: LocatedDecision, variant: string): KeyedDecision => ({
  objectKey: "k",
  line: decision.line,
  item: decision.item,
  variant,
  atMs: decision.at.getTime(),
  kind: decision.kind,
  inputKey: decision.inputKey,
  chosen: decision.chosen,
  topProbability: decision.topProbability,
  probabilities: decision.probabilities,
  latencyMs: decision.latencyMs,
});

const sent = { id: "d", state: "s", question: "Which?", options: OPTIONS.map((id) => ({ id, description: "" })) };

describe("the review queue's order", () => {
  it("offers unlabelled production decisions lowest confidence first, and no shadow's", () => {
    const scores = [
      [0.5, 0.3, 0.2],
      [0.34, 0.33, 0.33],
      [0.9, 0.05, 0.05],
      [0.2, 0.45, 0.35],
    ];
    record(
      "AllTraffic",
      "k",
      scores.map((p, line) => located(line, p)),
    );
    record("Shadow", "s", [located(0, [0.34, 0.33, 0.33])]);
    const filter = { variants: ["AllTraffic"], order: "lowest-confidence" as const, limit: 10 };
    const queue = unlabelledDecisions(db, ENDPOINT, filter);
    expect(queue.map((decision) => decision.line)).toEqual([1, 3, 0, 2]);
    expect(queue.every((decision) => decision.variant === "AllTraffic")).toBe(true);
    expect(unlabelledDecisions(db, ENDPOINT, { ...filter, limit: 2 }).map((d) => d.line)).toEqual([1, 3]);

    // A labelled (or skipped) decision leaves the queue.
    storeLabel(db, ENDPOINT, queue[0] as KeyedDecision, sent, "a", "ann");
    storeLabel(db, ENDPOINT, queue[1] as KeyedDecision, sent, null, "ann");
    expect(unlabelledDecisions(db, ENDPOINT, filter).map((d) => d.line)).toEqual([0, 2]);
    expect(countUnlabelled(db, ENDPOINT, ["AllTraffic"])).toBe(2);
    expect(countUnlabelled(db, ENDPOINT, ["AllTraffic"], "another-kind")).toBe(0);
    const random = unlabelledDecisions(db, ENDPOINT, { ...filter, order: "random" }).map((d) => d.line);
    expect(random.sort()).toEqual([0, 2]);
  });

  it("offers the production decisions a shadow decided otherwise, paired one to one", () => {
    const production = [located(0, [0.6, 0.3, 0.1]), located(1, [0.4, 0.35, 0.25]), located(2, [0.7, 0.2, 0.1])].map(
      (d) => keyed(d, "AllTraffic"),
    );
    const shadow = [
      located(0, [0.2, 0.7, 0.1]), // disagrees
      located(1, [0.1, 0.2, 0.7]), // disagrees, production less sure: first
      located(2, [0.8, 0.1, 0.1]), // agrees
    ].map((d) => keyed(d, "Shadow"));
    const found = shadowDisagreements(production, shadow, () => false, undefined);
    expect(found.map(({ decision, shadowChosen }) => [decision.line, shadowChosen])).toEqual([
      [1, "c"],
      [0, "b"],
    ]);
    expect(shadowDisagreements(production, shadow, (d) => d.line === 1, undefined).map((f) => f.decision.line)).toEqual(
      [0],
    );
    expect(shadowDisagreements(production, shadow, () => false, "other")).toEqual([]);
  });

  it("reads limits and orders, refusing what does not fit", () => {
    expect(reviewQuerySchema.parse({})).toEqual({ order: "lowest-confidence", limit: 10 });
    expect(reviewQuerySchema.safeParse({ limit: "51" }).success).toBe(false);
    expect(reviewQuerySchema.safeParse({ order: "newest" }).success).toBe(false);
    expect(labelDecisionSchema.safeParse({ objectKey: "k", line: 0, item: 0 }).success).toBe(false);
    expect(labelDecisionSchema.safeParse({ objectKey: "k", line: 0, item: 0, label: "a", skip: true }).success).toBe(
      false,
    );
    expect(labelDecisionSchema.safeParse({ objectKey: "k", line: 0, item: 0, skip: true }).success).toBe(true);
  });
});

describe("labels", () => {
  const noAws = {
    s3: {} as S3Client,
    sageMaker: {
      send: async () => ({ ProductionVariants: [{ VariantName: "AllTraffic" }] }),
    } as unknown as SageMakerClient,
    artifactBucket: "bucket",
  };

  it("refuse an option the decision does not have, or a decision not kept, as 4xx", async () => {
    record("AllTraffic", "k", [located(0, [0.5, 0.3, 0.2])]);
    const deps = { ...noAws, db };
    const bad = labelDecision(deps, ENDPOINT, { objectKey: "k", line: 0, item: 0, label: "z" }, "ann");
    await expect(bad).rejects.toMatchObject({ code: "bad_request", status: 400 });
    await expect(bad).rejects.toThrow(/"z" is not one of this decision's options \(a, b, c\)/);
    const missing = labelDecision(deps, ENDPOINT, { objectKey: "k", line: 9, item: 0, label: "a" }, "ann");
    await expect(missing).rejects.toMatchObject({ code: "not_found", status: 404 });
  });

  it("of a shadow's decision are refused", async () => {
    record("Shadow", "s", [located(0, [0.5, 0.3, 0.2])]);
    const deps = { ...noAws, db };
    const shadow = labelDecision(deps, ENDPOINT, { objectKey: "s", line: 0, item: 0, label: "a" }, "ann");
    await expect(shadow).rejects.toBeInstanceOf(AppError);
    await expect(shadow).rejects.toMatchObject({ status: 400 });
  });

  it("export nothing when none was given", () => {
    expect(() => exportLabelsToDataset(db, ENDPOINT, KIND, "x")).toThrow(/no labelled decisions/);
  });
});

describe("live accuracy", () => {
  it("is chosen == label over the labelled decisions, with the evaluation's ECE", () => {
    const labels = [
      { optionIds: OPTIONS, label: "a", probabilities: [0.9, 0.05, 0.05] },
      { optionIds: OPTIONS, label: "b", probabilities: [0.6, 0.3, 0.1] },
      { optionIds: OPTIONS, label: "c", probabilities: [0.1, 0.2, 0.7] },
    ];
    const figures = labelledAccuracy(labels);
    expect(figures?.labelled).toBe(3);
    expect(figures?.accuracy).toBeCloseTo(2 / 3);
    const outcomes = labels.map((entry, i) => ({ itemId: String(i), answer: entry.label, ...entry }));
    expect(figures?.ece).toBe(calibration(outcomes).ece);
    // By hand: bins 0.9 (right), 0.6 (wrong), 0.7 (right): (|1-0.9| + |0-0.6| + |1-0.7|) / 3.
    expect(figures?.ece).toBeCloseTo((0.1 + 0.6 + 0.3) / 3);
    expect(labelledAccuracy([])).toBeNull();
  });
});

describe("a captured request's decision", () => {
  it("is read from the record's input, single or shared-state", () => {
    const one = { id: "x", state: "s", question: "q", options: [{ id: "a" }, { id: "b" }] };
    const single = JSON.stringify({ captureData: { endpointInput: { data: JSON.stringify({ decision: one }) } } });
    expect(decisionInRecord(single, 0)?.id).toBe("x");
    expect(decisionInRecord(single, 1)).toBeNull();
    const shared = Buffer.from(JSON.stringify({ decisions: [one, { ...one, id: "y" }] })).toString("base64");
    const base64 = JSON.stringify({ captureData: { endpointInput: { data: shared, encoding: "BASE64" } } });
    expect(decisionInRecord(base64, 1)?.id).toBe("y");
    expect(decisionInRecord("not json", 0)).toBeNull();
  });
});
