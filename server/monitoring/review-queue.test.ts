import type { S3Client } from "@aws-sdk/client-s3";
import type { SageMakerClient } from "@aws-sdk/client-sagemaker";
import { describe, expect, it } from "vitest";
import { labelDecisionSchema, reviewQuerySchema } from "../../contract/endpoints/review.ts";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import { datasetItems } from "../evaluate/datasets/dataset-store.ts";
import { calibration } from "../evaluate/metrics/calibration.ts";
import { AppError } from "../http/app-error.ts";
import type { Store } from "../store/store.ts";
import { decisionKind } from "./capture-record.ts";
import { decisionInRecord } from "./captured-request.ts";
import { type LocatedDecision, recordCaptureObject } from "./monitoring-store.ts";
import { labelledAccuracy } from "./monitoring-summary.ts";
import { exportLabelsToDataset, labelDecision, shadowDisagreements } from "./review-queue.ts";
import {
  capturedDecision,
  countUnlabelled,
  decisionKey,
  givenLabels,
  type KeyedDecision,
  keyedDecisions,
  labelCounts,
  labelledSince,
  recentLabels,
  storeLabel,
  unlabelledDecisions,
} from "./review-store.ts";

const ENDPOINT = "dc-review";
const OPTIONS = ["a", "b", "c"];
const KIND = decisionKind("Which?", OPTIONS);

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

async function record(store: Store, variant: string, key: string, decisions: LocatedDecision[]) {
  await recordCaptureObject(store, {
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

type QueueFilter = Parameters<typeof unlabelledDecisions>[2];

const sent = { id: "d", state: "s", question: "Which?", options: OPTIONS.map((id) => ({ id, description: "" })) };

describeOnStores("the review queue's store", (current) => {
  it("offers unlabelled production decisions lowest confidence first, and no shadow's", async () => {
    const { store } = current();
    const scores = [
      [0.5, 0.3, 0.2],
      [0.34, 0.33, 0.33],
      [0.9, 0.05, 0.05],
      [0.2, 0.45, 0.35],
    ];
    await record(
      store,
      "AllTraffic",
      "k",
      scores.map((p, line) => located(line, p)),
    );
    await record(store, "Shadow", "s", [located(0, [0.34, 0.33, 0.33])]);
    const filter: QueueFilter = { variants: ["AllTraffic"], order: "lowest-confidence", limit: 10 };
    const lines = async (changes: Partial<QueueFilter> = {}) =>
      (await unlabelledDecisions(store, ENDPOINT, { ...filter, ...changes })).map((d) => d.line);
    const queue = await unlabelledDecisions(store, ENDPOINT, filter);
    expect(queue.map((decision) => decision.line)).toEqual([1, 3, 0, 2]);
    expect(queue.every((decision) => decision.variant === "AllTraffic")).toBe(true);
    expect(await lines({ limit: 2 })).toEqual([1, 3]);
    expect(await lines({ kind: KIND })).toEqual([1, 3, 0, 2]);
    expect(await lines({ variants: [] })).toEqual([]);

    // A labelled (or skipped) decision leaves the queue.
    await storeLabel(store, ENDPOINT, queue[0] as KeyedDecision, sent, "a", "ann");
    await storeLabel(store, ENDPOINT, queue[1] as KeyedDecision, sent, null, "ann");
    expect(await lines()).toEqual([0, 2]);
    expect(await countUnlabelled(store, ENDPOINT, { variants: ["AllTraffic"] })).toBe(2);
    expect(await countUnlabelled(store, ENDPOINT, { variants: ["AllTraffic"], kind: KIND })).toBe(2);
    expect(await countUnlabelled(store, ENDPOINT, { variants: ["AllTraffic"], kind: "another-kind" })).toBe(0);
    const random = await lines({ order: "random" });
    expect(random.sort()).toEqual([0, 2]);
  });

  const noAws = {
    s3: {} as S3Client,
    sageMaker: {
      send: async () => ({ ProductionVariants: [{ VariantName: "AllTraffic" }] }),
    } as unknown as SageMakerClient,
    artifactBucket: "bucket",
  };

  it("refuses labels of an option the decision does not have, or of a decision not kept, as 4xx", async () => {
    const { store } = current();
    await record(store, "AllTraffic", "k", [located(0, [0.5, 0.3, 0.2])]);
    const deps = { ...noAws, store };
    const bad = labelDecision(deps, ENDPOINT, { objectKey: "k", line: 0, item: 0, label: "z" }, "ann");
    await expect(bad).rejects.toMatchObject({ code: "bad_request", status: 400 });
    await expect(bad).rejects.toThrow(/"z" is not one of this decision's options \(a, b, c\)/);
    const missing = labelDecision(deps, ENDPOINT, { objectKey: "k", line: 9, item: 0, label: "a" }, "ann");
    await expect(missing).rejects.toMatchObject({ code: "not_found", status: 404 });
  });

  it("refuses labels of a shadow's decision", async () => {
    const { store } = current();
    await record(store, "Shadow", "s", [located(0, [0.5, 0.3, 0.2])]);
    const deps = { ...noAws, store };
    const shadow = labelDecision(deps, ENDPOINT, { objectKey: "s", line: 0, item: 0, label: "a" }, "ann");
    await expect(shadow).rejects.toBeInstanceOf(AppError);
    await expect(shadow).rejects.toMatchObject({ status: 400 });
  });

  it("exports no labels when none was given", async () => {
    await expect(exportLabelsToDataset(current().store, ENDPOINT, KIND, "x")).rejects.toThrow(/no labelled decisions/);
  });
});

describeOnStores("labels in the store", (current) => {
  const at = (minute: number) => new Date(Date.UTC(2026, 11, 4, 10, minute));

  it("keep one label per decision, count labels and skips per kind, and export the given ones", async () => {
    const { store } = current();
    await record(store, "AllTraffic", "k", [
      located(0, [0.5, 0.3, 0.2]),
      located(1, [0.2, 0.5, 0.3]),
      located(2, [0.2, 0.3, 0.5]),
    ]);
    const decision = async (line: number) => {
      const found = await capturedDecision(store, ENDPOINT, { objectKey: "k", line, item: 0 });
      if (!found) throw new Error(`no decision at line ${line}`);
      return found;
    };
    expect(await capturedDecision(store, ENDPOINT, { objectKey: "k", line: 9, item: 0 })).toBeNull();
    expect(await decision(1)).toMatchObject({ variant: "AllTraffic", atMs: 1_001, chosen: "b", inputKey: "input-1" });

    await storeLabel(store, ENDPOINT, await decision(0), sent, "a", "ann", at(1));
    await storeLabel(store, ENDPOINT, await decision(1), sent, null, "bo", at(2));
    await storeLabel(store, ENDPOINT, await decision(2), sent, "c", "ann", at(3));
    // A second label replaces the first.
    await storeLabel(store, ENDPOINT, await decision(0), sent, "b", "cy", at(4));

    expect(
      (await recentLabels(store, ENDPOINT, 2)).map((label) => [label.line, label.label, label.labelledBy]),
    ).toEqual([
      [0, "b", "cy"],
      [2, "c", "ann"],
    ]);
    expect(await labelCounts(store, ENDPOINT)).toEqual(new Map([[KIND, { labelled: 2, skipped: 1 }]]));
    const given = await givenLabels(store, ENDPOINT, { kind: KIND });
    expect(given.map((label) => [label.key.line, label.label, label.chosen, label.atMs])).toEqual([
      [0, "b", "a", 1_000],
      [2, "c", "c", 1_002],
    ]);
    expect(given[0]?.decision).toEqual(sent);
    expect(given[0]?.probabilities).toEqual([0.5, 0.3, 0.2]);
    expect((await givenLabels(store, ENDPOINT, { fromMs: 1_001, toMs: 1_003 })).map((label) => label.key.line)).toEqual(
      [2],
    );
    expect(await givenLabels(store, ENDPOINT, { kind: "another-kind" })).toEqual([]);
    expect(await labelledSince(store, ENDPOINT, 1_001)).toEqual(
      new Set([decisionKey({ objectKey: "k", line: 1, item: 0 }), decisionKey({ objectKey: "k", line: 2, item: 0 })]),
    );

    const exported = await exportLabelsToDataset(store, ENDPOINT, KIND, "reviewed");
    expect(exported).toMatchObject({ name: "reviewed", itemCount: 2 });
    const items = await datasetItems(store, exported.datasetId);
    expect(items.map((item) => [item.decision.id, item.answer])).toEqual([
      ["d", "b"],
      ["d#2", "c"],
    ]);
  });

  it("read the kept decisions of some variants since a time, oldest first", async () => {
    const { store } = current();
    await record(store, "AllTraffic", "k", [located(0, [0.5, 0.3, 0.2], 3_000), located(1, [0.5, 0.3, 0.2], 2_000)]);
    await record(store, "Shadow", "s", [located(0, [0.5, 0.3, 0.2], 2_500)]);
    const read = async (variants: string[], fromMs: number) =>
      (await keyedDecisions(store, ENDPOINT, { variants }, fromMs)).map((d) => [d.variant, d.atMs]);
    expect(await read(["AllTraffic"], 0)).toEqual([
      ["AllTraffic", 2_000],
      ["AllTraffic", 3_000],
    ]);
    expect(await read(["AllTraffic", "Shadow"], 2_500)).toEqual([
      ["Shadow", 2_500],
      ["AllTraffic", 3_000],
    ]);
    expect(await read([], 0)).toEqual([]);
  });
});

describe("the review queue's order", () => {
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
    expect(reviewQuerySchema.parse({})).toEqual({ order: "lowest-confidence", limit: 10, includeEvaluation: false });
    expect(reviewQuerySchema.parse({ includeEvaluation: "true" }).includeEvaluation).toBe(true);
    expect(reviewQuerySchema.safeParse({ includeEvaluation: "yes" }).success).toBe(false);
    expect(reviewQuerySchema.safeParse({ limit: "51" }).success).toBe(false);
    expect(reviewQuerySchema.safeParse({ order: "newest" }).success).toBe(false);
    expect(labelDecisionSchema.safeParse({ objectKey: "k", line: 0, item: 0 }).success).toBe(false);
    expect(labelDecisionSchema.safeParse({ objectKey: "k", line: 0, item: 0, label: "a", skip: true }).success).toBe(
      false,
    );
    expect(labelDecisionSchema.safeParse({ objectKey: "k", line: 0, item: 0, skip: true }).success).toBe(true);
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
