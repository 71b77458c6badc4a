import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { CreateModelCommand, DescribeModelCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import {
  type ControlPlane,
  localAwsEnvironment,
  localClientConfig,
  startControlPlane,
} from "@decision-console/local-aws";
import { createTinyAdapterModel, testStackFixture } from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  batchModelDataReason,
  type DatasetExport,
  type TransformJobDetail,
  type TransformJobList,
} from "@/contract/batch/transform-jobs.ts";
import type { ConsoleErrorBody } from "@/contract/http/error-body.ts";
import { createDataset } from "@/server/evaluate/datasets/dataset-store.ts";
import { closeConsoleStore, consoleStore } from "@/server/store/console-database.ts";

vi.mock("server-only", () => ({}));

/**
 * The batch routes against the real local control plane with real adapter processes: a stored dataset exported to
 * S3, a two-instance job started on it, its progress, outputs and logs read back, a stop, and the refusals.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "console-batch-routes-"));
const saved = { ...process.env };
let plane: ControlPlane;
let jobs: typeof import("./route.ts");
let job: typeof import("./[name]/route.ts");
let stop: typeof import("./[name]/stop/route.ts");
let exportRoute: typeof import("../datasets/[id]/export/route.ts");

const base = "http://127.0.0.1:3000";
const send = (url: string, body?: unknown) =>
  new Request(`${base}${url}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const named = (name: string) => ({ params: Promise.resolve({ name }) });

const items = Array.from({ length: 112 }, (_, index) => ({
  decision: {
    id: `item-${index}`,
    state: `Ticket ${index}: the customer asks about invoice ${index}.`,
    question: "Which team should handle this ticket?",
    options: [
      { id: "billing", description: "Billing" },
      { id: "tech", description: "Technical support" },
    ],
  },
  answer: "billing",
  category: null,
  tier: null,
}));

/** POST /api/batch for the test's model and exported input, on one small CPU instance unless told. */
function start(name: string, overrides: Record<string, unknown> = {}) {
  return jobs.POST(
    send("/api/batch", {
      name,
      modelName: "dc-batch-routes",
      inputS3Uri: input.inputS3Uri,
      instanceType: "ml.c6i.large",
      ...overrides,
    }),
  );
}

async function detail(name: string): Promise<TransformJobDetail> {
  return (await job.GET(new Request(`${base}/api/batch/${name}`), named(name))).json();
}

async function untilEnded(name: string): Promise<TransformJobDetail> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const current = await detail(name);
    if (!["InProgress", "Stopping"].includes(current.status) || Date.now() > deadline) return current;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir: path.join(dataDir, "aws"), port: 0 });
  Object.assign(process.env, localAwsEnvironment(plane), { CONSOLE_DATA_DIR: path.join(dataDir, "console") });
  await createTinyAdapterModel(plane, "dc-batch-routes", dataDir);
  jobs = await import("./route.ts");
  job = await import("./[name]/route.ts");
  stop = await import("./[name]/stop/route.ts");
  exportRoute = await import("../datasets/[id]/export/route.ts");
});

afterAll(async () => {
  await plane?.close();
  await closeConsoleStore();
  process.env = saved;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

let input: DatasetExport;

describe("batch transform routes in local mode", { timeout: 180_000 }, () => {
  it("exports a stored dataset to S3 as one decision request body a line", async () => {
    const dataset = await createDataset(consoleStore(), { name: "tickets", source: "upload", format: "jsonl", items });
    const response = await exportRoute.POST(send(`/api/datasets/${dataset.id}/export`), {
      params: Promise.resolve({ id: dataset.id }),
    });
    expect(response.status).toBe(200);
    input = await response.json();
    expect(input).toEqual({ inputS3Uri: `s3://decision-console-local/batch/inputs/${dataset.id}/`, records: 112 });
  });

  it("runs a two-instance job and reports its outputs, records, cost estimate and logs", async () => {
    const started = await start("dc-routes-job", { instanceCount: 2 });
    expect(started.status, await started.clone().text()).toBe(202);
    const ended = await untilEnded("dc-routes-job");
    expect(ended.status, ended.failureReason ?? "").toBe("Completed");
    // 100 items an object: two objects, each with its .out.
    expect(ended.inputObjects).toBe(2);
    expect(ended.outputs.map((output) => output.s3Uri)).toEqual([
      "s3://decision-console-local/batch/outputs/dc-routes-job/items-00001.jsonl.out",
      "s3://decision-console-local/batch/outputs/dc-routes-job/items-00002.jsonl.out",
    ]);
    expect(ended.recordsDone).toBe(112);
    // Counted from the containers' request log lines, as the console reads them on AWS too.
    expect(ended.recordsAnswered).toBe(112);
    expect(ended.inputRecords).toBe(112);
    expect(ended.outputPreview[0]).toMatchObject({
      s3Uri: "s3://decision-console-local/batch/outputs/dc-routes-job/items-00001.jsonl.out",
      line: 1,
      input: expect.stringContaining(items[0]!.decision.id),
    });
    expect(ended.model).toEqual({ imageUri: expect.stringMatching(/decision-adapter@sha256:/), sourceBuildId: null });
    expect(ended.costEstimateUsd).toBeGreaterThanOrEqual(0);
    expect(ended.logs.some((line) => line.message.includes("Completed"))).toBe(true);
    const listed: TransformJobList = await (await jobs.GET(new Request(`${base}/api/batch`))).json();
    expect(listed.jobs.map((j) => j.name)).toContain("dc-routes-job");
  });

  it("shows a job whose record the container refused as SageMaker reports it, the data log naming object and line", async () => {
    // One decision request body a line, as the dataset export writes them; the second has one option only.
    const rows = items.slice(0, 3).map((item, index) => ({
      decision: { ...item.decision, options: item.decision.options.slice(0, index === 1 ? 1 : 2) },
    }));
    const s3 = new S3Client(localClientConfig(plane, "admin"));
    await s3.send(
      new PutObjectCommand({
        Bucket: "decision-console-local",
        Key: "batch/inputs/refused-routes/rows.jsonl",
        Body: rows.map((row) => JSON.stringify(row)).join("\n"),
      }),
    );
    const started = await start("dc-refused-routes", {
      inputS3Uri: "s3://decision-console-local/batch/inputs/refused-routes/",
    });
    expect(started.status, await started.clone().text()).toBe(202);
    const ended = await untilEnded("dc-refused-routes");
    expect(ended.status).toBe("Failed");
    expect(ended.failureReason).toBe("ClientError: See job logs for more information");
    const refusal = ended.dataLog.map((line) => line.replace(/^\S+:\[sagemaker logs\]: /, ""));
    const object = "decision-console-local/batch/inputs/refused-routes/rows.jsonl";
    expect(refusal.slice(0, 3)).toEqual([`${object}: ClientError: 400`, `${object}:`, `${object}: Message:`]);
    expect(refusal[3]).toMatch(new RegExp(`^${object}: line 2: .*options`));
  });

  it("refuses GPU instance types, names outside the prefix, and stopping a job that has ended", async () => {
    const gpu = await start("dc-gpu-job", { instanceType: "ml.g5.xlarge" });
    expect(gpu.status).toBe(400);
    expect(((await gpu.json()) as ConsoleErrorBody).error.message).toContain("cpu image only");
    const outside = await start("other-job");
    expect(outside.status).toBe(400);
    const ended = await stop.POST(send("/api/batch/dc-routes-job/stop"), named("dc-routes-job"));
    expect(ended.status).toBe(409);
  });

  it("refuses a deployed model whose data is uncompressed (ModelDataSource), saying why", async () => {
    const admin = new SageMakerClient(localClientConfig(plane, "admin"));
    const deployed = await admin.send(new DescribeModelCommand({ ModelName: "dc-batch-routes" }));
    await admin.send(
      new CreateModelCommand({
        ModelName: "dc-uncompressed-model",
        ExecutionRoleArn: deployed.ExecutionRoleArn,
        EnableNetworkIsolation: true,
        PrimaryContainer: {
          Image: deployed.PrimaryContainer?.Image,
          ModelDataSource: {
            S3DataSource: {
              S3Uri: "s3://decision-console-local/models/uncompressed/",
              S3DataType: "S3Prefix",
              CompressionType: "None",
            },
          },
        },
      }),
    );
    const refused = await start("dc-uncompressed-job", { modelName: "dc-uncompressed-model" });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as ConsoleErrorBody).error.message).toBe(
      `modelName: "dc-uncompressed-model" has uncompressed model data. ${batchModelDataReason}`,
    );
    expect((await detail("dc-uncompressed-job").catch(() => null))?.status).toBeUndefined();
  });

  it("stops a job in progress", async () => {
    const started = await start("dc-stop-job");
    expect(started.status).toBe(202);
    const stopped = await stop.POST(send("/api/batch/dc-stop-job/stop"), named("dc-stop-job"));
    expect(stopped.status).toBe(202);
    expect((await untilEnded("dc-stop-job")).status).toBe("Stopped");
  });
});
