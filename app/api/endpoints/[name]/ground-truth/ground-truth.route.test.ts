import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { DescribeEndpointCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import { mockClient } from "aws-sdk-client-mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CapturedDecision } from "@/server/monitoring/capture-record.ts";
import { decisionKind } from "@/server/monitoring/capture-record.ts";
import { recordCaptureObject } from "@/server/monitoring/monitoring-store.ts";
import { openDatabase } from "@/server/store/database.ts";
import { sqliteStore } from "@/server/store/sqlite-store.ts";

// The routes read their database and bucket from the environment, as in local mode; S3 and SageMaker are doubles:
// three captured requests (two single decisions and one shared-state request of two), and one ground-truth file.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ground-truth-routes-"));
const saved = { ...process.env };
const ENDPOINT = "dc-labelled";
const OBJECT_KEY = `data-capture/${ENDPOINT}/AllTraffic/2026/12/04/10/00-00-000-x.jsonl`;
const OPTIONS = ["billing", "support"];
const QUESTION = "Which team?";
const TRUTH_KEY = `ground-truth/${ENDPOINT}/tickets/2026/12/05/09/labels.jsonl`;
const TRUTH_WRITTEN = new Date("2026-12-05T09:30:00Z");
const truth = (eventId: string, data: string, encoding = "CSV") =>
  JSON.stringify({ groundTruthData: { data, encoding }, eventMetadata: { eventId }, eventVersion: "0" });
const truthFile = [
  truth("inf-1", "billing"),
  truth("inf-2", JSON.stringify("support"), "JSON"),
  truth("inf-unknown", "billing"),
  truth("inf-1", "sales"),
  "not json",
].join("\n");

/** The capture object's records as sent: the review queue reads a decision back from it. */
const sent = (i: number) => ({
  id: `d${i}`,
  state: `Ticket ${i}`,
  question: QUESTION,
  options: OPTIONS.map((id) => ({ id, description: id })),
});
const captureRecord = (input: unknown) =>
  JSON.stringify({
    captureData: { endpointInput: { data: JSON.stringify(input), encoding: "JSON" } },
    eventMetadata: { eventId: "e", inferenceTime: "2026-12-04T10:00:00Z" },
  });
const captureObject = [
  captureRecord({ decision: sent(0) }),
  captureRecord({ decision: sent(1) }),
  captureRecord({ decisions: [sent(2), sent(3)] }),
].join("\n");

const s3 = mockClient(S3Client);
s3.on(ListObjectsV2Command).resolves({});
s3.on(GetObjectCommand, { Key: OBJECT_KEY }).resolves({
  Body: { transformToString: async () => `${captureObject}\n` },
} as never);
s3.on(ListObjectsV2Command, { Prefix: `ground-truth/${ENDPOINT}/tickets/` }).resolves({
  Contents: [{ Key: TRUTH_KEY }],
});
s3.on(GetObjectCommand, { Key: TRUTH_KEY }).resolves({
  Body: { transformToString: async () => `${truthFile}\n` },
  LastModified: TRUTH_WRITTEN,
} as never);
mockClient(SageMakerClient)
  .on(DescribeEndpointCommand)
  .resolves({ EndpointName: ENDPOINT, ProductionVariants: [{ VariantName: "AllTraffic" }] } as never);

let batches: typeof import("./route.ts");
let imports: typeof import("./import/route.ts");
let realised: typeof import("../realised/route.ts");
let review: typeof import("../review/labels/route.ts");

const base = "http://127.0.0.1:3000";
const params = { params: Promise.resolve({ name: ENDPOINT }) };
const post = (url: string, body: unknown) =>
  new Request(`${base}${url}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const sendLabels = (labels: unknown[]) =>
  batches.POST(post(`/api/endpoints/${ENDPOINT}/ground-truth`, { labels }), params);
const importPrefix = (prefix: string) =>
  imports.POST(post(`/api/endpoints/${ENDPOINT}/ground-truth/import`, { prefix }), params);

const decided = (
  line: number,
  item: number,
  inferenceId: string,
  chosen: string,
): CapturedDecision & { line: number } => ({
  at: new Date("2026-12-04T10:00:00Z"),
  eventId: `e${line}`,
  inferenceId,
  item,
  inputKey: `i${line}`,
  decisionId: `d${line}-${item}`,
  kind: decisionKind(QUESTION, OPTIONS),
  question: QUESTION,
  options: OPTIONS,
  chosen,
  topProbability: 0.7,
  probabilities: chosen === "billing" ? [0.7, 0.3] : [0.3, 0.7],
  latencyMs: 5,
  line,
});

async function storedLabels() {
  const store = sqliteStore(openDatabase(path.join(dataDir, "console.db")));
  try {
    return await store
      .selectFrom("ground_truth_labels")
      .select(["inference_id", "item", "label", "labelled_at_ms", "source"])
      .orderBy("line")
      .orderBy("item")
      .execute();
  } finally {
    await store.destroy();
  }
}

beforeAll(async () => {
  Object.assign(process.env, {
    CONSOLE_DATA_DIR: dataDir,
    CONSOLE_ARTIFACT_BUCKET: "decision-console-test",
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "AKIDEXAMPLELOCAL",
    AWS_SECRET_ACCESS_KEY: "local-secret",
  });
  const store = sqliteStore(openDatabase(path.join(dataDir, "console.db")));
  await recordCaptureObject(store, {
    endpointName: ENDPOINT,
    key: OBJECT_KEY,
    variant: "AllTraffic",
    records: 3,
    unreadable: 0,
    decisions: [
      decided(0, 0, "inf-1", "billing"),
      decided(1, 0, "inf-2", "billing"),
      decided(2, 0, "inf-shared", "support"),
      decided(2, 1, "inf-shared", "billing"),
    ],
  });
  await store.destroy();
  batches = await import("./route.ts");
  imports = await import("./import/route.ts");
  realised = await import("../realised/route.ts");
  review = await import("../review/labels/route.ts");
});

afterAll(() => {
  process.env = saved;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the label API", () => {
  it("refuses a batch with bad rows, naming each, and stores none of its rows", async () => {
    const answer = await sendLabels([
      { inferenceId: "inf-1", label: "billing", labelledAt: "2026-12-05T08:00:00Z" },
      { inferenceId: "inf-nowhere", label: "billing", labelledAt: "2026-12-05T08:00:00Z" },
      { inferenceId: "inf-2", label: "sales", labelledAt: "2026-12-05T08:00:00Z" },
      { inferenceId: "inf-shared", label: "billing", labelledAt: "2026-12-05T08:00:00Z" },
    ]);
    expect(answer.status).toBe(400);
    const { error } = (await answer.json()) as {
      error: { message: string; details: { refused: { row: number; why: string }[]; refusedCount: number } };
    };
    expect(error.message).toMatch(/^3 of 4 labels were refused and none was stored/);
    expect(error.details.refused.map((refused) => refused.row)).toEqual([1, 2, 3]);
    expect(error.details.refused[0]?.why).toMatch(/no captured decision has inference id "inf-nowhere"/);
    expect(error.details.refused[1]?.why).toMatch(
      /label "sales" is not one of the decision's options \(billing, support\)/,
    );
    expect(error.details.refused[2]?.why).toMatch(/shared-state request of 2 decisions: name one with item/);
    expect(await storedLabels()).toEqual([]);
  });

  it("refuses a row that is not a label (a date that is not ISO 8601) with 400 naming its field", async () => {
    const answer = await sendLabels([{ inferenceId: "inf-1", label: "billing", labelledAt: "yesterday" }]);
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(/labels\.0\.labelledAt/);
  });

  it("stores a good batch once: the same batch again changes nothing", async () => {
    const batch = [
      { inferenceId: "inf-2", label: "support", labelledAt: "2026-12-05T08:00:00Z" },
      { inferenceId: "inf-shared", label: "billing", labelledAt: "2026-12-05T08:00:00Z", item: 1 },
    ];
    const first = await sendLabels(batch);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ stored: 2, unchanged: 0 });
    expect(await (await sendLabels(batch)).json()).toEqual({ stored: 0, unchanged: 2 });
    expect(await storedLabels()).toEqual([
      {
        inference_id: "inf-2",
        item: 0,
        label: "support",
        labelled_at_ms: Date.parse("2026-12-05T08:00:00Z"),
        source: "api:local",
      },
      {
        inference_id: "inf-shared",
        item: 1,
        label: "billing",
        labelled_at_ms: Date.parse("2026-12-05T08:00:00Z"),
        source: "api:local",
      },
    ]);
  });

  it("keeps the label learnt last: an earlier one arriving late does not replace it", async () => {
    const earlier = await sendLabels([{ inferenceId: "inf-2", label: "billing", labelledAt: "2026-12-05T07:00:00Z" }]);
    expect(await earlier.json()).toEqual({ stored: 0, unchanged: 1 });
    const later = await sendLabels([{ inferenceId: "inf-2", label: "billing", labelledAt: "2026-12-05T09:00:00Z" }]);
    expect(await later.json()).toEqual({ stored: 1, unchanged: 0 });
    const row = (await storedLabels()).find((label) => label.inference_id === "inf-2");
    expect(row?.label).toBe("billing");
  });
});

describe("the ground-truth import", () => {
  it("refuses a prefix outside the endpoint's ground-truth folder", async () => {
    const answer = await importPrefix("data-capture/dc-labelled/");
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(
      /under ground-truth\/dc-labelled\//,
    );
  });

  it("stores the records that name a decision and one of its options, learnt when their file was written", async () => {
    const answer = await importPrefix(`ground-truth/${ENDPOINT}/tickets/`);
    expect(answer.status).toBe(200);
    const result = (await answer.json()) as {
      objects: number;
      records: number;
      stored: number;
      unchanged: number;
      refusedCount: number;
      refused: { row: number; object: string; why: string }[];
    };
    expect(result).toMatchObject({ objects: 1, records: 5, stored: 2, unchanged: 0, refusedCount: 3 });
    expect(result.refused.map((refused) => [refused.row, refused.object])).toEqual([
      [4, TRUTH_KEY],
      [2, TRUTH_KEY],
      [3, TRUTH_KEY],
    ]);
    const inf1 = (await storedLabels()).find((label) => label.inference_id === "inf-1");
    expect(inf1).toEqual({
      inference_id: "inf-1",
      item: 0,
      label: "billing",
      labelled_at_ms: TRUTH_WRITTEN.getTime(),
      source: `s3://decision-console-test/${TRUTH_KEY}`,
    });
    // The file was written after the label API's last label for inf-2: its label is the one learnt last.
    expect((await storedLabels()).find((label) => label.inference_id === "inf-2")?.label).toBe("support");
  });

  it("stores nothing twice when the files are read again", async () => {
    const again = (await (await importPrefix(`ground-truth/${ENDPOINT}/tickets/`)).json()) as Record<string, number>;
    expect(again).toMatchObject({ stored: 0, unchanged: 2, refusedCount: 3 });
  });
});

describe("the review queue's labels", () => {
  const reviewLabel = (body: unknown) => review.POST(post(`/api/endpoints/${ENDPOINT}/review/labels`, body), params);
  const shared = { objectKey: OBJECT_KEY, line: 2, item: 0 };

  it("join the ground truth, and a skip takes the reviewer's label back", async () => {
    expect((await reviewLabel({ ...shared, label: "support" })).status).toBe(200);
    const joined = (await storedLabels()).find((label) => label.inference_id === "inf-shared" && label.item === 0);
    expect(joined).toMatchObject({ label: "support", source: "review:local" });
    expect((await reviewLabel({ ...shared, skip: true })).status).toBe(200);
    const left = (await storedLabels()).find((label) => label.inference_id === "inf-shared" && label.item === 0);
    expect(left).toBeUndefined();
  });

  it("leave a label learnt elsewhere when the reviewer skips the decision", async () => {
    expect((await reviewLabel({ objectKey: OBJECT_KEY, line: 0, item: 0, skip: true })).status).toBe(200);
    const kept = (await storedLabels()).find((label) => label.inference_id === "inf-1");
    expect(kept).toMatchObject({ label: "billing", source: `s3://decision-console-test/${TRUTH_KEY}` });
  });
});

describe("realised quality", () => {
  it("joins the stored labels with the captured decisions of their kind", async () => {
    const answer = await realised.GET(new Request(`${base}/api/endpoints/${ENDPOINT}/realised?window=30d`), params);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { threshold: number; kinds: Record<string, unknown>[] };
    expect(body.threshold).toBe(0.5);
    // inf-1 chose billing (label billing), inf-2 chose billing (label support), inf-shared item 1 chose billing (billing).
    expect(body.kinds).toHaveLength(1);
    expect(body.kinds[0]).toMatchObject({
      decisions: 4,
      labelled: 3,
      labelledShare: 0.75,
      accuracy: { labelled: 3, correct: 2 },
      atThreshold: { labelled: 3, correct: 2 },
      coverage: 1,
      evaluation: null,
      alarm: { state: "INSUFFICIENT_DATA" },
    });
  });
});
