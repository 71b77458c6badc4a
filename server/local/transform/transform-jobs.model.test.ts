import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CloudWatchLogsClient, FilterLogEventsCommand } from "@aws-sdk/client-cloudwatch-logs";
import {
  CreateTransformJobCommand,
  type CreateTransformJobCommandInput,
  DescribeTransformJobCommand,
  ListTransformJobsCommand,
  SageMakerClient,
  StopTransformJobCommand,
} from "@aws-sdk/client-sagemaker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRANSFORM_JOB_LOG_GROUP } from "../../../infra/cdk/console-contract.ts";
import { LOCAL_ARTIFACT_BUCKET } from "../builds/build-runner.ts";
import { type ControlPlane, startControlPlane } from "../control-plane.ts";
import { localClientConfig } from "../stack.ts";
import { createTinyAdapterModel } from "../test-support/batch-model.ts";

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

async function put(key: string, text: string) {
  await plane.objects.putObject(bucket, key, Buffer.from(text));
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
      S3OutputPath: `s3://${bucket}/batch/out/${name}/`,
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

/** An output line: the input record with the adapter's answer joined as SageMakerOutput. */
type Answer = {
  decision: { id: string };
  SageMakerOutput: { result: { option_ids: string[]; probabilities: number[] } };
};

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-transform-"));
  plane = await startControlPlane({ dataDir: path.join(dataDir, "plane"), port: 0 });
  await createTinyAdapterModel(plane, MODEL, dataDir, { UNDOCUMENTED_SETTING: "x" });
  await put("batch/in/tickets/a.jsonl", jsonLines(Array.from({ length: 9 }, (_, i) => decision(i))));
  await put("batch/in/tickets/sub/b.jsonl", jsonLines(Array.from({ length: 4 }, (_, i) => decision(100 + i))));
});

afterAll(async () => {
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("local batch transform", { timeout: 180_000 }, () => {
  let multiRecord: Answer[];

  it("sends MultiRecord mini-batches and writes <key>.out per input object in input order, joined to inputs", async () => {
    const described = await run(
      job("dc-multi", "batch/in/tickets/", {
        BatchStrategy: "MultiRecord",
        MaxPayloadInMB: 1,
        MaxConcurrentTransforms: 2,
      }),
    );
    expect(described.TransformJobStatus, described.FailureReason).toBe("Completed");
    expect(described.TransformStartTime).toBeInstanceOf(Date);
    multiRecord = output("batch/out/dc-multi/a.jsonl.out").map((line) => JSON.parse(line) as Answer);
    expect(multiRecord.map((answer) => answer.decision.id)).toEqual(Array.from({ length: 9 }, (_, i) => `ticket-${i}`));
    for (const answer of multiRecord) {
      const total = answer.SageMakerOutput.result.probabilities.reduce((sum, p) => sum + p, 0);
      expect(total).toBeCloseTo(1, 6);
    }
    expect(output("batch/out/dc-multi/sub/b.jsonl.out")).toHaveLength(4);
    // Every object's records fit in 1 MiB: one request per object.
    const invocations = (await logLines("dc-multi/i-")).filter((e) => isInvocation(e.message));
    expect(invocations).toHaveLength(2);
    const notes = (await logLines("dc-multi/local-control-plane")).map((e) => e.message).join("\n");
    expect(notes).toContain("UNDOCUMENTED_SETTING");
    expect(notes).toContain("MaxConcurrentTransforms=2, BatchStrategy=MultiRecord, MaxPayloadInMB=1 (not asked)");
  });

  it("takes unset settings from GET /execution-parameters, splits records across two instances, same probabilities", async () => {
    const described = await run(
      job("dc-single", "batch/in/tickets/a.jsonl", {
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
    const single = output("batch/out/dc-single/a.jsonl.out").map((line) => JSON.parse(line) as Answer);
    expect(single.map((answer) => answer.decision.id)).toEqual(multiRecord.map((answer) => answer.decision.id));
    for (const [index, answer] of single.entries()) {
      const expected = multiRecord[index]!.SageMakerOutput.result.probabilities;
      for (const [option, p] of answer.SageMakerOutput.result.probabilities.entries()) {
        // Records scored concurrently share llama.cpp batches with others, which is not bit-identical to scoring
        // them one after another: equal to 1e-4, not to the last digit.
        expect(p).toBeCloseTo(expected[option]!, 4);
      }
    }
  });

  it("fails the job naming the object and line of a record the container refuses", async () => {
    const rows = [decision(1), decision(2), decision(3, 1), decision(4)];
    await put("batch/in/bad/rows.jsonl", jsonLines(rows));
    const described = await run(
      job("dc-refused", "batch/in/bad/", {
        BatchStrategy: "MultiRecord",
        TransformResources: { InstanceType: "ml.c5.xlarge", InstanceCount: 1 },
      }),
    );
    expect(described.TransformJobStatus).toBe("Failed");
    expect(described.FailureReason).toMatch(
      /^ClientError: s3:\/\/decision-console-local\/batch\/in\/bad\/rows\.jsonl, line 3: Bad HTTP status received from algorithm: 400\. Message: .*options/,
    );
    expect(plane.objects.find(bucket, "batch/out/dc-refused/rows.jsonl.out")).toBeUndefined();
  });

  it("reads and writes with the execution role, which may not read outside batch/", async () => {
    await put("elsewhere/in/rows.jsonl", jsonLines([decision(1)]));
    const described = await run(job("dc-outside", "elsewhere/in/"));
    expect(described.TransformJobStatus).toBe("Failed");
    expect(described.FailureReason).toContain("is not authorized to perform: s3:ListBucket");
    expect(described.FailureReason).toContain("assumed-role/");
  });

  it("refuses a second job of the same name and lists jobs with their status", async () => {
    const error = await sageMaker()
      .send(new CreateTransformJobCommand(job("dc-single", "batch/in/tickets/a.jsonl")))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "ResourceInUse" });
    const listed = await sageMaker().send(
      new ListTransformJobsCommand({ StatusEquals: "Completed", SortBy: "Name", SortOrder: "Ascending" }),
    );
    expect(listed.TransformJobSummaries?.map((s) => s.TransformJobName)).toEqual(["dc-multi", "dc-single"]);
  });

  it("stops a job in progress, and resumes one across a restart without repeating finished records", async () => {
    const many = jsonLines(Array.from({ length: 120 }, (_, i) => decision(i)));
    await put("batch/in/many/rows.jsonl", many);
    const single = { MaxConcurrentTransforms: 1, BatchStrategy: "SingleRecord" as const };
    await sageMaker().send(new CreateTransformJobCommand(job("dc-stopped", "batch/in/many/", single)));
    await waitForProgress("dc-stopped", 5);
    await sageMaker().send(new StopTransformJobCommand({ TransformJobName: "dc-stopped" }));
    await plane.transforms.settled("dc-stopped");
    const stopped = await sageMaker().send(new DescribeTransformJobCommand({ TransformJobName: "dc-stopped" }));
    expect(stopped.TransformJobStatus).toBe("Stopped");
    expect(plane.objects.find(bucket, "batch/out/dc-stopped/rows.jsonl.out")).toBeUndefined();

    await sageMaker().send(new CreateTransformJobCommand(job("dc-resumed", "batch/in/many/", single)));
    await waitForProgress("dc-resumed", 30);
    await plane.close();
    plane = await startControlPlane({ dataDir: path.join(dataDir, "plane"), port: 0 });
    await plane.transforms.settled("dc-resumed");
    const resumed = await sageMaker().send(new DescribeTransformJobCommand({ TransformJobName: "dc-resumed" }));
    expect(resumed.TransformJobStatus, resumed.FailureReason).toBe("Completed");
    const ids = output("batch/out/dc-resumed/rows.jsonl.out").map(
      (line) => (JSON.parse(line) as { decision: { id: string } }).decision.id,
    );
    expect(ids).toEqual(Array.from({ length: 120 }, (_, i) => `ticket-${i}`));
    const invocations = (await logLines("dc-resumed/i-")).filter((e) => isInvocation(e.message));
    // At most the one record in flight at the restart is sent again.
    expect(invocations.length).toBeGreaterThanOrEqual(120);
    expect(invocations.length).toBeLessThanOrEqual(121);
  });
});

async function waitForProgress(name: string, records: number) {
  const deadline = Date.now() + 60_000;
  while (plane.transforms.recordsDone(name) < records) {
    if (Date.now() > deadline) throw new Error(`${name} did not reach ${records} records`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
