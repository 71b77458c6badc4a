import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { CloudWatchLogsClient, FilterLogEventsCommand } from "@aws-sdk/client-cloudwatch-logs";
import {
  CreateModelCommand,
  CreateTransformJobCommand,
  type CreateTransformJobCommandInput,
  DescribeModelCommand,
  DescribeTransformJobCommand,
  ListTransformJobsCommand,
  SageMakerClient,
  StopTransformJobCommand,
} from "@aws-sdk/client-sagemaker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ControlPlane, startControlPlane } from "../control-plane.ts";
import { localClientConfig } from "../stack.ts";
import { createTinyAdapterModel } from "../test-support/batch-model.ts";
import { testStackFixture } from "../test-support/stack-fixture.ts";
import { TRANSFORM_JOB_LOG_GROUP } from "./transform-runner.ts";

const LOCAL_ARTIFACT_BUCKET = testStackFixture().bucket;

/**
 * Local batch transform with real adapter processes, through the SDK as the console signs: outputs in input order
 * across two instances, the settings left unset taken from /execution-parameters, a refused record failing the job
 * with its file and line, the execution role's S3 limits, stop, and a restart that resumes without repeating.
 */
const MODEL = "dc-batch-model";
const bucket = LOCAL_ARTIFACT_BUCKET;
let dataDir: string;
let plane: ControlPlane;

const decision = (index: number, optionCount = 3) => ({
  decision: {
    id: `ticket-${index}`,
    state: `Ticket ${index}: the customer reports problem number ${index % 7} with their order.`,
    question: "Which team should handle this ticket?",
    options: [
      { id: "billing", description: "Billing and payments" },
      { id: "tech", description: "Technical support" },
      { id: "sales", description: "Sales" },
    ].slice(0, optionCount),
  },
});

const jsonLines = (rows: unknown[]) => `${rows.map((row) => JSON.stringify(row)).join("\n")}\n`;

function sageMaker() {
  return new SageMakerClient(localClientConfig(plane, "console"));
}

async function put(key: string, body: string | Buffer) {
  await plane.objects.putObject(bucket, key, Buffer.isBuffer(body) ? body : Buffer.from(body));
}

function output(key: string): string[] {
  const object = plane.objects.find(bucket, key);
  if (!object) throw new Error(`no output at ${key}`);
  return fs.readFileSync(object.file, "utf8").split("\n").slice(0, -1);
}

function job(name: string, input: string, overrides: Partial<CreateTransformJobCommandInput> = {}) {
  return {
    TransformJobName: name,
    ModelName: MODEL,
    TransformInput: {
      DataSource: { S3DataSource: { S3DataType: "S3Prefix", S3Uri: `s3://${bucket}/${input}` } },
      ContentType: "application/jsonlines",
      SplitType: "Line",
    },
    TransformOutput: {
      S3OutputPath: `s3://${bucket}/batch/outputs/${name}/`,
      Accept: "application/jsonlines",
      AssembleWith: "Line",
    },
    TransformResources: { InstanceType: "ml.c5.xlarge", InstanceCount: 1 },
    DataProcessing: { JoinSource: "Input" },
    ...overrides,
  } satisfies CreateTransformJobCommandInput;
}

async function run(input: CreateTransformJobCommandInput) {
  await sageMaker().send(new CreateTransformJobCommand(input));
  await plane.transforms.settled(input.TransformJobName!);
  return sageMaker().send(new DescribeTransformJobCommand({ TransformJobName: input.TransformJobName }));
}

/** An adapter's request log line for an answered POST /invocations. */
function isInvocation(message: string | undefined): boolean {
  if (!message?.startsWith("{")) return false;
  const line = JSON.parse(message) as { path?: string; status?: number };
  return line.path === "/invocations" && line.status === 200;
}

async function logLines(prefix: string) {
  const logs = new CloudWatchLogsClient(localClientConfig(plane, "admin"));
  const { events = [] } = await logs.send(
    new FilterLogEventsCommand({ logGroupName: TRANSFORM_JOB_LOG_GROUP, logStreamNamePrefix: prefix, limit: 10_000 }),
  );
  return events;
}

/**
 * The refusal a job's data log records for an input object, in SageMaker's form (`<time>:[sagemaker logs]:
 * <bucket>/<key>: ClientError: <status>`, an empty line, `Message:`, the message), the first refused line it names.
 */
async function refusalInDataLog(jobName: string, key: string) {
  const events = (await logLines(`${jobName}/`)).filter((event) => event.logStreamName?.endsWith("/data-log"));
  const prefix = new RegExp(
    `^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}:\\[sagemaker logs\\]: ${bucket}/${key}:`,
  );
  const said = events.map((event) => event.message ?? "").filter((message) => prefix.test(message));
  const texts = said.map((message) => message.replace(prefix, ""));
  const status = /^ ClientError: (\d{3})$/.exec(texts[0] ?? "")?.[1];
  expect(texts.slice(1, 3)).toEqual(["", " Message:"]);
  const refused = /^ line (\d+): .*options/.exec(texts[3] ?? "");
  return { status, line: refused ? Number(refused[1]) : null };
}

/** An output line: the input record with the adapter's answer joined as SageMakerOutput. */
type Answer = {
  decision: { id: string };
  SageMakerOutput: { result: { option_ids: string[]; probabilities: number[] } };
};

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-transform-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir: path.join(dataDir, "plane"), port: 0 });
  await createTinyAdapterModel(plane, MODEL, dataDir, { UNDOCUMENTED_SETTING: "x" });
  await put("batch/inputs/tickets/a.jsonl", jsonLines(Array.from({ length: 9 }, (_, i) => decision(i))));
  await put("batch/inputs/tickets/sub/b.jsonl", jsonLines(Array.from({ length: 4 }, (_, i) => decision(100 + i))));
});

afterAll(async () => {
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("local batch transform", { timeout: 180_000 }, () => {
  let multiRecord: Answer[];

  it("sends MultiRecord mini-batches and writes <key>.out per input object in input order, joined to inputs", async () => {
    const described = await run(
      job("dc-multi", "batch/inputs/tickets/", {
        BatchStrategy: "MultiRecord",
        MaxPayloadInMB: 1,
        MaxConcurrentTransforms: 2,
      }),
    );
    expect(described.TransformJobStatus, described.FailureReason).toBe("Completed");
    expect(described.TransformStartTime).toBeInstanceOf(Date);
    multiRecord = output("batch/outputs/dc-multi/a.jsonl.out").map((line) => JSON.parse(line) as Answer);
    expect(multiRecord.map((answer) => answer.decision.id)).toEqual(Array.from({ length: 9 }, (_, i) => `ticket-${i}`));
    for (const answer of multiRecord) {
      const total = answer.SageMakerOutput.result.probabilities.reduce((sum, p) => sum + p, 0);
      expect(total).toBeCloseTo(1, 6);
    }
    expect(output("batch/outputs/dc-multi/sub/b.jsonl.out")).toHaveLength(4);
    // Every object's records fit in 1 MiB: one request per object.
    const invocations = (await logLines("dc-multi/i-")).filter((e) => isInvocation(e.message));
    expect(invocations).toHaveLength(2);
    const notes = (await logLines("dc-multi/local-control-plane")).map((e) => e.message).join("\n");
    expect(notes).toContain("UNDOCUMENTED_SETTING");
    expect(notes).toContain("MaxConcurrentTransforms=2, BatchStrategy=MultiRecord, MaxPayloadInMB=1 (not asked)");
  });

  it("takes unset settings from GET /execution-parameters, splits records across two instances, same probabilities", async () => {
    const described = await run(
      job("dc-single", "batch/inputs/tickets/a.jsonl", {
        TransformResources: { InstanceType: "ml.c5.xlarge", InstanceCount: 2 },
      }),
    );
    expect(described.TransformJobStatus, described.FailureReason).toBe("Completed");
    const notes = (await logLines("dc-single/local-control-plane")).map((e) => e.message).join("\n");
    expect(notes).toMatch(
      /MaxConcurrentTransforms=\d+, BatchStrategy=SingleRecord, MaxPayloadInMB=1 \(GET \/execution-parameters answered 200\)/,
    );
    const invocations = (await logLines("dc-single/i-")).filter((e) => isInvocation(e.message));
    expect(invocations).toHaveLength(9);
    expect(new Set(invocations.map((e) => e.logStreamName)).size).toBe(2);
    const single = output("batch/outputs/dc-single/a.jsonl.out").map((line) => JSON.parse(line) as Answer);
    expect(single.map((answer) => answer.decision.id)).toEqual(multiRecord.map((answer) => answer.decision.id));
    for (const [index, answer] of single.entries()) {
      const expected = multiRecord[index]!.SageMakerOutput.result.probabilities;
      for (const [option, p] of answer.SageMakerOutput.result.probabilities.entries()) {
        // Records scored concurrently share llama.cpp batches with others, which is not bit-identical to scoring
        // them one after another: equal within DESIGN's 1e-4 for shared scoring, not to the last digit.
        expect(Math.abs(p - expected[option]!)).toBeLessThan(1e-4);
      }
    }
  });

  it("fails the job as SageMaker does when the container refuses a record; the data log names object, line and message", async () => {
    const rows = [decision(1), decision(2), decision(3, 1), decision(4)];
    await put("batch/inputs/bad/rows.jsonl", jsonLines(rows));
    const described = await run(
      job("dc-refused", "batch/inputs/bad/", {
        BatchStrategy: "MultiRecord",
        TransformResources: { InstanceType: "ml.c5.xlarge", InstanceCount: 1 },
      }),
    );
    expect(described.TransformJobStatus).toBe("Failed");
    expect(described.FailureReason).toBe("ClientError: See job logs for more information");
    expect(await refusalInDataLog("dc-refused", "batch/inputs/bad/rows.jsonl")).toEqual({ status: "400", line: 3 });
    expect(plane.objects.find(bucket, "batch/outputs/dc-refused/rows.jsonl.out")).toBeUndefined();
  });

  it("reads and writes with the execution role, which may not read outside batch/inputs/", async () => {
    await put("elsewhere/in/rows.jsonl", jsonLines([decision(1)]));
    const described = await run(job("dc-outside", "elsewhere/in/"));
    expect(described.TransformJobStatus).toBe("Failed");
    expect(described.FailureReason).toContain("is not authorized to perform: s3:ListBucket");
    expect(described.FailureReason).toContain("assumed-role/");
  });

  it("may not overwrite inputs: an S3OutputPath under batch/inputs/ fails on s3:PutObject", async () => {
    const described = await run(
      job("dc-over-inputs", "batch/inputs/tickets/sub/", {
        TransformOutput: { S3OutputPath: `s3://${bucket}/batch/inputs/tickets/`, AssembleWith: "Line" },
      }),
    );
    expect(described.TransformJobStatus).toBe("Failed");
    expect(described.FailureReason).toMatch(
      /^ClientError: .*assumed-role\/.* is not authorized to perform: s3:PutObject on resource: "?arn:aws:s3:::decision-console-local\/batch\/inputs\/tickets\/b\.jsonl\.out/,
    );
    expect(plane.objects.find(bucket, "batch/inputs/tickets/b.jsonl.out")).toBeUndefined();
  });

  it("refuses a manifest entry the execution role may not read (another job's output), naming it", async () => {
    await put(
      "batch/inputs/manifests/copy.json",
      JSON.stringify([{ prefix: `s3://${bucket}/` }, "batch/outputs/dc-multi/a.jsonl.out"]),
    );
    const described = await run(
      job("dc-manifest-copy", "batch/inputs/manifests/copy.json", {
        TransformInput: {
          DataSource: {
            S3DataSource: { S3DataType: "ManifestFile", S3Uri: `s3://${bucket}/batch/inputs/manifests/copy.json` },
          },
          SplitType: "Line",
        },
      }),
    );
    expect(described.TransformJobStatus).toBe("Failed");
    expect(described.FailureReason).toMatch(
      /is not authorized to perform: s3:GetObject on resource: "?arn:aws:s3:::decision-console-local\/batch\/outputs\/dc-multi\/a\.jsonl\.out/,
    );
    expect(plane.objects.find(bucket, "batch/outputs/dc-manifest-copy/batch/outputs/dc-multi/a.jsonl.out.out")).toBe(
      undefined,
    );
  });

  it("refuses a second job of the same name and lists jobs with their status", async () => {
    const error = await sageMaker()
      .send(new CreateTransformJobCommand(job("dc-single", "batch/inputs/tickets/a.jsonl")))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "ResourceInUse" });
    const listed = await sageMaker().send(
      new ListTransformJobsCommand({ StatusEquals: "Completed", SortBy: "Name", SortOrder: "Ascending" }),
    );
    expect(listed.TransformJobSummaries?.map((s) => s.TransformJobName)).toEqual(["dc-multi", "dc-single"]);
  });

  it("stops a job in progress, and resumes one across a restart without repeating finished records", async () => {
    const many = jsonLines(Array.from({ length: 120 }, (_, i) => decision(i)));
    await put("batch/inputs/many/rows.jsonl", many);
    const single = { MaxConcurrentTransforms: 1, BatchStrategy: "SingleRecord" as const };
    await sageMaker().send(new CreateTransformJobCommand(job("dc-stopped", "batch/inputs/many/", single)));
    await waitForProgress("dc-stopped", 5);
    await sageMaker().send(new StopTransformJobCommand({ TransformJobName: "dc-stopped" }));
    await plane.transforms.settled("dc-stopped");
    const stopped = await sageMaker().send(new DescribeTransformJobCommand({ TransformJobName: "dc-stopped" }));
    expect(stopped.TransformJobStatus).toBe("Stopped");
    expect(plane.objects.find(bucket, "batch/outputs/dc-stopped/rows.jsonl.out")).toBeUndefined();

    await sageMaker().send(new CreateTransformJobCommand(job("dc-resumed", "batch/inputs/many/", single)));
    await waitForProgress("dc-resumed", 30);
    await plane.close();
    plane = await startControlPlane({ fixture: testStackFixture(), dataDir: path.join(dataDir, "plane"), port: 0 });
    await plane.transforms.settled("dc-resumed");
    const resumed = await sageMaker().send(new DescribeTransformJobCommand({ TransformJobName: "dc-resumed" }));
    expect(resumed.TransformJobStatus, resumed.FailureReason).toBe("Completed");
    const ids = output("batch/outputs/dc-resumed/rows.jsonl.out").map(
      (line) => (JSON.parse(line) as { decision: { id: string } }).decision.id,
    );
    expect(ids).toEqual(Array.from({ length: 120 }, (_, i) => `ticket-${i}`));
    const invocations = (await logLines("dc-resumed/i-")).filter((e) => isInvocation(e.message));
    // At most the one record in flight at the restart is sent again.
    expect(invocations.length).toBeGreaterThanOrEqual(120);
    expect(invocations.length).toBeLessThanOrEqual(121);
  });
});

describe("local batch transform refusals", { timeout: 180_000 }, () => {
  it("refuses a model given as ModelDataSource, as the API reference says batch transform cannot use it", async () => {
    const admin = new SageMakerClient(localClientConfig(plane, "admin"));
    const described = await admin.send(new DescribeModelCommand({ ModelName: MODEL }));
    await admin.send(
      new CreateModelCommand({
        ModelName: "dc-uncompressed",
        ExecutionRoleArn: described.ExecutionRoleArn,
        EnableNetworkIsolation: true,
        PrimaryContainer: {
          Image: described.PrimaryContainer?.Image,
          ModelDataSource: {
            S3DataSource: {
              S3Uri: `s3://${bucket}/models/dc-uncompressed/`,
              S3DataType: "S3Prefix",
              CompressionType: "None",
            },
          },
        },
      }),
    );
    const error = await sageMaker()
      .send(
        new CreateTransformJobCommand(
          job("dc-on-uncompressed", "batch/inputs/tickets/", { ModelName: "dc-uncompressed" }),
        ),
      )
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: "ValidationException",
      message: expect.stringMatching(/ModelDataSource, which cannot be used with batch transform/),
    });
    const listed = await sageMaker().send(new ListTransformJobsCommand({ NameContains: "dc-on-uncompressed" }));
    expect(listed.TransformJobSummaries).toEqual([]);
  });

  it("refuses MaxConcurrentTransforms × MaxPayloadInMB over 100 MB", async () => {
    const error = await sageMaker()
      .send(
        new CreateTransformJobCommand(
          job("dc-too-wide", "batch/inputs/tickets/", { MaxConcurrentTransforms: 11, MaxPayloadInMB: 10 }),
        ),
      )
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: "ValidationException",
      message: "The value of MaxConcurrentTransforms * MaxPayloadInMB (11 * 10) cannot exceed 100 MB.",
    });
  });

  it("names the first refused record, not the requests aborted because of it", async () => {
    const rows = Array.from({ length: 40 }, (_, i) => decision(i, i === 2 ? 1 : 3));
    await put("batch/inputs/refused-wide/rows.jsonl", jsonLines(rows));
    const described = await run(
      job("dc-refused-wide", "batch/inputs/refused-wide/", {
        MaxConcurrentTransforms: 4,
        BatchStrategy: "SingleRecord",
      }),
    );
    expect(described.TransformJobStatus).toBe("Failed");
    expect(described.FailureReason).toBe("ClientError: See job logs for more information");
    expect(await refusalInDataLog("dc-refused-wide", "batch/inputs/refused-wide/rows.jsonl")).toEqual({
      status: "400",
      line: 3,
    });
  });

  it("fails a job on a 1 MB gzip holding one 1 GiB line, once: the control plane serves on and a restart does not resume it", async () => {
    const member = gzipSync(Buffer.alloc(1024 * 1024, "a"), { level: 9 });
    await put("batch/inputs/bomb/x.json.gz", Buffer.concat(Array.from({ length: 1024 }, () => member)));
    const gzipJob = (name: string, split: "Line" | "None") =>
      job(name, "batch/inputs/bomb/", {
        TransformInput: {
          DataSource: { S3DataSource: { S3DataType: "S3Prefix", S3Uri: `s3://${bucket}/batch/inputs/bomb/` } },
          SplitType: split,
          CompressionType: "Gzip",
        },
        MaxPayloadInMB: 6,
      });
    for (const [name, split] of [
      ["dc-bomb-line", "Line"],
      ["dc-bomb-whole", "None"],
    ] as const) {
      const described = await run(gzipJob(name, split));
      expect(described.TransformJobStatus).toBe("Failed");
      expect(described.FailureReason).toBe(
        "ClientError: s3://decision-console-local/batch/inputs/bomb/x.json.gz, line 1: Too much data for max payload size (more than 6291456 bytes, MaxPayloadInMB).",
      );
    }
    await plane.close();
    plane = await startControlPlane({ fixture: testStackFixture(), dataDir: path.join(dataDir, "plane"), port: 0 });
    await plane.transforms.settled("dc-bomb-line");
    const after = await sageMaker().send(new DescribeTransformJobCommand({ TransformJobName: "dc-bomb-line" }));
    expect(after.TransformJobStatus).toBe("Failed");
    const starts = (await logLines("dc-bomb-line/local-control-plane")).filter((e) =>
      e.message?.startsWith("Settings:"),
    );
    expect(starts).toHaveLength(1);
  });
});

async function waitForProgress(name: string, records: number) {
  const deadline = Date.now() + 60_000;
  while (plane.transforms.recordsDone(name) < records) {
    if (Date.now() > deadline) throw new Error(`${name} did not reach ${records} records`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
