import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, ListObjectsV2Command, NoSuchKey, S3Client } from "@aws-sdk/client-s3";
import { DescribeEndpointCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import { mockClient } from "aws-sdk-client-mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decisionKind } from "@/server/monitoring/capture-record.ts";
import { recordCaptureObject } from "@/server/monitoring/monitoring-store.ts";
import { openDatabase } from "@/server/store/database.ts";
import { sqliteStore } from "@/server/store/sqlite-store.ts";

// The routes read their database and bucket from the environment, as in local mode; S3 and SageMaker are doubles:
// one captured production decision, whose record the GetObject double answers.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "review-routes-"));
const saved = { ...process.env };
const ENDPOINT = "dc-reviewed";
const OBJECT_KEY = `data-capture/${ENDPOINT}/AllTraffic/2026/12/04/10/00-00-000-x.jsonl`;
const OPTIONS = ["billing", "support"];
const sent = {
  id: "ticket-1",
  state: "Customer: I was charged twice.",
  question: "Which team?",
  options: [
    { id: "billing", description: "Billing" },
    { id: "support", description: "Support" },
  ],
};
const record = JSON.stringify({
  captureData: { endpointInput: { data: JSON.stringify({ decision: sent }), encoding: "JSON" } },
  eventMetadata: { eventId: "e1", inferenceTime: new Date().toISOString() },
});

const s3 = mockClient(S3Client);
s3.on(ListObjectsV2Command)
  .resolves({})
  .on(GetObjectCommand)
  .resolves({ Body: { transformToString: async () => `${record}\n` } } as never);
mockClient(SageMakerClient)
  .on(DescribeEndpointCommand)
  .resolves({ EndpointName: ENDPOINT, ProductionVariants: [{ VariantName: "AllTraffic" }] } as never);

let queue: typeof import("./route.ts");
let labels: typeof import("./labels/route.ts");
let exporter: typeof import("./export/route.ts");

const base = "http://127.0.0.1:3000";
const params = { params: Promise.resolve({ name: ENDPOINT }) };
const post = (url: string, body: unknown) =>
  new Request(`${base}${url}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

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
    records: 1,
    unreadable: 0,
    decisions: [
      {
        at: new Date(),
        eventId: "e1",
        inferenceId: null,
        item: 0,
        inputKey: "i",
        decisionId: sent.id,
        kind: decisionKind(sent.question, OPTIONS),
        question: sent.question,
        options: OPTIONS,
        chosen: "support",
        topProbability: 0.6,
        probabilities: [0.4, 0.6],
        latencyMs: 5,
        line: 0,
      },
    ],
  });
  await store.destroy();
  queue = await import("./route.ts");
  labels = await import("./labels/route.ts");
  exporter = await import("./export/route.ts");
});

afterAll(() => {
  process.env = saved;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the review routes", () => {
  it("offer the decision, refuse bad labels with 4xx, take a good one, and export it as a dataset", async () => {
    const listed = await queue.GET(new Request(`${base}/api/endpoints/${ENDPOINT}/review?limit=5`), params);
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { items: { objectKey: string; state: string; kind: string }[] };
    expect(body.items).toHaveLength(1);
    expect(body.items[0]?.state).toBe(sent.state);
    const kind = body.items[0]?.kind ?? "";

    expect((await queue.GET(new Request(`${base}/api/endpoints/${ENDPOINT}/review?limit=0`), params)).status).toBe(400);
    const key = { objectKey: OBJECT_KEY, line: 0, item: 0 };
    const wrong = await labels.POST(
      post(`/api/endpoints/${ENDPOINT}/review/labels`, { ...key, label: "sales" }),
      params,
    );
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toMatch(/not one of/);
    const both = { ...key, label: "billing", skip: true };
    expect((await labels.POST(post(`/api/endpoints/${ENDPOINT}/review/labels`, both), params)).status).toBe(400);
    const gone = { ...key, line: 3, label: "billing" };
    expect((await labels.POST(post(`/api/endpoints/${ENDPOINT}/review/labels`, gone), params)).status).toBe(404);

    const good = await labels.POST(
      post(`/api/endpoints/${ENDPOINT}/review/labels`, { ...key, label: "billing" }),
      params,
    );
    expect(good.status).toBe(200);
    expect(await good.json()).toMatchObject({ label: "billing", chosen: "support" });

    const exported = await exporter.POST(post(`/api/endpoints/${ENDPOINT}/review/export`, { kind, name: "r" }), params);
    expect(exported.status).toBe(201);
    const { datasetId, itemCount } = (await exported.json()) as { datasetId: string; itemCount: number };
    expect(itemCount).toBe(1);

    const store = sqliteStore(openDatabase(path.join(dataDir, "console.db")));
    const item = await store
      .selectFrom("evaluation_dataset_items")
      .select(["decision", "answer"])
      .where("dataset_id", "=", datasetId)
      .executeTakeFirst();
    const audit = await store.selectFrom("audit_log").select(["action", "result"]).orderBy("id").execute();
    await store.destroy();
    expect(item).toEqual({ decision: JSON.stringify(sent), answer: "billing" });
    // Every label asked for, refused or stored, and the export are in the audit log (a body that does not parse
    // is refused before the audited call).
    expect(audit).toEqual([
      { action: "endpoint.review.label", result: "error" },
      { action: "endpoint.review.label", result: "error" },
      { action: "endpoint.review.label", result: "ok" },
      { action: "endpoint.review.export", result: "ok" },
    ]);
  });

  it("leave out decisions whose capture object is missing or malformed, say how many, and offer the next", async () => {
    // Issue 51, item 4: one such object answered 404 for every page, filter and order.
    const missing = `data-capture/${ENDPOINT}/AllTraffic/2026/12/04/11/00-00-000-gone.jsonl`;
    const malformed = `data-capture/${ENDPOINT}/AllTraffic/2026/12/04/11/01-00-000-bad.jsonl`;
    const readable = `data-capture/${ENDPOINT}/AllTraffic/2026/12/04/11/02-00-000-ok.jsonl`;
    s3.on(GetObjectCommand, { Key: missing }).rejects(
      new NoSuchKey({ message: "The specified key does not exist.", $metadata: {} }),
    );
    s3.on(GetObjectCommand, { Key: malformed }).resolves({
      Body: { transformToString: async () => "not a capture record\n" },
    } as never);
    const store = sqliteStore(openDatabase(path.join(dataDir, "console.db")));
    for (const [key, top] of [
      [missing, 0.51],
      [malformed, 0.52],
      [readable, 0.53],
    ] as const) {
      await recordCaptureObject(store, {
        endpointName: ENDPOINT,
        key,
        variant: "AllTraffic",
        records: 1,
        unreadable: 0,
        decisions: [
          {
            at: new Date(),
            eventId: key,
            inferenceId: null,
            item: 0,
            inputKey: key,
            decisionId: sent.id,
            kind: decisionKind(sent.question, OPTIONS),
            question: sent.question,
            options: OPTIONS,
            chosen: "support",
            topProbability: top,
            probabilities: [1 - top, top],
            latencyMs: 5,
            line: 0,
          },
        ],
      });
    }
    await store.destroy();

    const lowest = await queue.GET(new Request(`${base}/api/endpoints/${ENDPOINT}/review?limit=1`), params);
    expect(lowest.status).toBe(200);
    const body = (await lowest.json()) as { items: { objectKey: string }[]; unreadable: number; unlabelled: number };
    expect(body.items.map((item) => item.objectKey)).toEqual([readable]);
    expect(body.unreadable).toBe(2);
    expect(body.unlabelled).toBe(3);
    for (const order of ["random", "shadow-disagrees"]) {
      const response = await queue.GET(
        new Request(`${base}/api/endpoints/${ENDPOINT}/review?order=${order}&limit=50`),
        params,
      );
      expect(response.status).toBe(200);
    }
    const random = (await (
      await queue.GET(new Request(`${base}/api/endpoints/${ENDPOINT}/review?order=random&limit=50`), params)
    ).json()) as { items: { objectKey: string }[]; unreadable: number };
    expect(random.items.map((item) => item.objectKey)).toEqual([readable]);
    expect(random.unreadable).toBe(2);
  });

  it("skip a capture object listed but gone by the time it is read, instead of answering 404", async () => {
    const folder = `data-capture/${ENDPOINT}/`;
    const gone = `${folder}AllTraffic/2026/12/04/12/00-00-000-deleted.jsonl`;
    s3.on(ListObjectsV2Command, { Prefix: folder, Delimiter: "/" }).resolves({
      CommonPrefixes: [{ Prefix: `${folder}AllTraffic/` }],
    });
    s3.on(ListObjectsV2Command, { Prefix: `${folder}AllTraffic/` }).resolves({ Contents: [{ Key: gone }] });
    s3.on(GetObjectCommand, { Key: gone }).rejects(
      new NoSuchKey({ message: "The specified key does not exist.", $metadata: {} }),
    );
    const response = await queue.GET(new Request(`${base}/api/endpoints/${ENDPOINT}/review?limit=1`), params);
    expect(response.status).toBe(200);
  });
});
