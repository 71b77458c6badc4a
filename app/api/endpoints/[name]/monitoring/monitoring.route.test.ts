import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { DescribeEndpointCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import { mockClient } from "aws-sdk-client-mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decisionKind } from "@/server/monitoring/capture-record.ts";
import { type LocatedDecision, recordCaptureObject } from "@/server/monitoring/monitoring-store.ts";
import { openDatabase } from "@/server/store/database.ts";
import { sqliteStore } from "@/server/store/sqlite-store.ts";

// The route reads its database and bucket from the environment, as in local mode; S3 and SageMaker are doubles
// (no new capture objects, no shadow test). The store holds 25 decision kinds, 3 of them about refunds.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "monitoring-routes-"));
const saved = { ...process.env };
const ENDPOINT = "dc-monitored";
const OPTIONS = ["yes", "no"];
const questions = Array.from({ length: 25 }, (_, i) => (i < 3 ? `Refund order ${i}?` : `Escalate ticket ${i}?`));

mockClient(S3Client).on(ListObjectsV2Command).resolves({});
mockClient(SageMakerClient)
  .on(DescribeEndpointCommand)
  .resolves({ EndpointName: ENDPOINT, ProductionVariants: [{ VariantName: "AllTraffic" }] } as never);

let monitoring: typeof import("./route.ts");
const base = "http://127.0.0.1:3000";
const params = { params: Promise.resolve({ name: ENDPOINT }) };

interface Answer {
  endpointName: string;
  kinds: { question: string; decisions: number }[];
  kindPage: { page: number; perPage: number; matching: number; total: number; search: string | null };
}

async function look(query: string): Promise<Answer> {
  const response = await monitoring.GET(new Request(`${base}/api/endpoints/${ENDPOINT}/monitoring?${query}`), params);
  expect(response.status).toBe(200);
  return (await response.json()) as Answer;
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
  // Kind i gets i + 1 decisions, so the most decided kinds are the last questions.
  const decisions: LocatedDecision[] = questions.flatMap((question, i) =>
    Array.from({ length: i + 1 }, (_, n) => ({
      at: new Date(),
      eventId: `e${i}-${n}`,
      inferenceId: null,
      item: 0,
      inputKey: `i${i}-${n}`,
      decisionId: `d${i}-${n}`,
      kind: decisionKind(question, OPTIONS),
      question,
      options: OPTIONS,
      chosen: "yes",
      topProbability: 0.8,
      probabilities: [0.8, 0.2],
      latencyMs: 5,
      line: i * 100 + n,
    })),
  );
  await recordCaptureObject(store, {
    endpointName: ENDPOINT,
    key: `data-capture/${ENDPOINT}/AllTraffic/2026/12/04/10/00-00-000-x.jsonl`,
    variant: "AllTraffic",
    records: decisions.length,
    unreadable: 0,
    decisions,
  });
  await store.destroy();
  monitoring = await import("./route.ts");
});

afterAll(() => {
  process.env = saved;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the Monitoring route's decision kinds (issue 51, item 5)", () => {
  it("answers one page of kinds, most decisions first, with how many there are", async () => {
    const answer = await look("window=1h");
    expect(answer.kinds.map((kind) => kind.decisions)).toEqual([25, 24, 23, 22, 21, 20, 19, 18, 17, 16]);
    expect(answer.kindPage).toEqual({ page: 1, perPage: 10, matching: 25, total: 25, search: null });
  });

  it("answers a later page", async () => {
    const answer = await look("window=1h&kindPage=3");
    expect(answer.kinds.map((kind) => kind.decisions)).toEqual([5, 4, 3, 2, 1]);
  });

  it("finds kinds by their question's text, ignoring case", async () => {
    const answer = await look("window=1h&kindSearch=REFUND");
    expect(answer.kinds.map((kind) => kind.question)).toEqual([
      "Refund order 2?",
      "Refund order 1?",
      "Refund order 0?",
    ]);
    expect(answer.kindPage).toEqual({ page: 1, perPage: 10, matching: 3, total: 25, search: "REFUND" });
  });

  it("refuses a page that is not a whole number from 1", async () => {
    const response = await monitoring.GET(
      new Request(`${base}/api/endpoints/${ENDPOINT}/monitoring?kindPage=0`),
      params,
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/kindPage must be/);
  });

  it("reads an endpoint named in another case under the name SageMaker keeps (names ignore case)", async () => {
    const response = await monitoring.GET(new Request(`${base}/api/endpoints/DC-Monitored/monitoring?window=1h`), {
      params: Promise.resolve({ name: "DC-Monitored" }),
    });
    const answer = (await response.json()) as Answer;
    expect(answer.endpointName).toBe(ENDPOINT);
    expect(answer.kindPage.total).toBe(25);
  });
});
