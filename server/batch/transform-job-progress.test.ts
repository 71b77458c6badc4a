import { CloudWatchLogsClient, FilterLogEventsCommand } from "@aws-sdk/client-cloudwatch-logs";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { DescribeModelCommand, DescribeTransformJobCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import { mockClient } from "aws-sdk-client-mock";
import { beforeEach, describe, expect, it } from "vitest";
import { awsSettings } from "../../tests/support/console-settings.ts";
import { describeTransformJob } from "./transform-jobs.ts";
import { outputPreview, recordsAnswered } from "./transform-progress.ts";

const sageMaker = mockClient(SageMakerClient);
const s3 = mockClient(S3Client);
const logs = mockClient(CloudWatchLogsClient);
const aws = {
  sageMaker: new SageMakerClient({ region: "us-east-1" }),
  s3: new S3Client({ region: "us-east-1" }),
  logs: new CloudWatchLogsClient({ region: "us-east-1" }),
};
const settings = awsSettings;

/** A GetObject body as the SDK's stream mixin reads it. */
const body = (text: string) =>
  ({
    transformToByteArray: async () => new Uint8Array(Buffer.from(text)),
    transformToString: async () => text,
  }) as never;
/** The adapter's request log line for one answered POST /invocations of `records` JSON Lines records. */
const answered = (records: number, status = 200) =>
  JSON.stringify({
    time: "t",
    request_id: "r",
    method: "POST",
    path: "/invocations",
    route: "jsonlines",
    status,
    records,
  });

const input = Array.from({ length: 231 }, (_, i) => JSON.stringify({ decision: { id: `item-${i}` } })).join("\n");

beforeEach(() => {
  for (const client of [sageMaker, s3, logs]) client.reset();
  sageMaker.on(DescribeTransformJobCommand).resolves({
    TransformJobName: "dc-job",
    TransformJobStatus: "InProgress",
    ModelName: "dc-model",
    CreationTime: new Date(),
    TransformStartTime: new Date(),
    TransformInput: {
      DataSource: { S3DataSource: { S3DataType: "S3Prefix", S3Uri: "s3://artifacts/batch/inputs/x/" } },
    },
    TransformOutput: { S3OutputPath: "s3://artifacts/batch/outputs/x/" },
    TransformResources: { InstanceType: "ml.m5.large", InstanceCount: 1 },
  });
  sageMaker.on(DescribeModelCommand).resolves({ PrimaryContainer: { Image: "img" } });
  s3.on(ListObjectsV2Command, { Prefix: "batch/inputs/x/" }).resolves({
    Contents: [{ Key: "batch/inputs/x/items.jsonl", Size: input.length + 1 }],
  });
  s3.on(GetObjectCommand, { Key: "batch/inputs/x/items.jsonl" }).callsFake(() => ({ Body: body(`${input}\n`) }));
});

describe("a running transform job's progress", () => {
  it("counts the records the containers answered while the single input's .out is not written yet", async () => {
    s3.on(ListObjectsV2Command, { Prefix: "batch/outputs/x/" }).resolves({ Contents: [] });
    logs
      .on(FilterLogEventsCommand)
      .resolvesOnce({
        events: [
          { logStreamName: "dc-job/i-1", message: "llama.cpp loaded" },
          ...Array.from({ length: 40 }, () => ({ logStreamName: "dc-job/i-1", message: answered(1) })),
        ],
        nextToken: "page-2",
      })
      .resolvesOnce({
        events: [
          { logStreamName: "dc-job/i-1", message: answered(1, 400) },
          { logStreamName: "dc-job/i-1", message: answered(17) },
          { logStreamName: "dc-job/i-1", message: JSON.stringify({ method: "GET", path: "/ping", status: 200 }) },
        ],
      });
    const job = await describeTransformJob(aws, settings, "dc-job");
    expect(job.outputs).toEqual([]);
    expect(job.recordsAnswered).toBe(57);
    expect(job.inputRecords).toBe(231);
    expect(job.logs.at(-1)?.message).toContain("/ping");
  });

  it("previews the first output records with their input line", async () => {
    const out = [
      JSON.stringify({ decision: { id: "item-0" }, SageMakerOutput: { chosen: "no" } }),
      JSON.stringify({ decision: { id: "item-1" }, SageMakerOutput: { status: 400, error: "too long" } }),
      "",
    ].join("\n");
    s3.on(ListObjectsV2Command, { Prefix: "batch/outputs/x/" }).resolves({
      Contents: [{ Key: "batch/outputs/x/items.jsonl.out", Size: out.length }],
    });
    s3.on(GetObjectCommand, { Key: "batch/outputs/x/items.jsonl.out" }).callsFake(() => ({ Body: body(out) }));
    logs.on(FilterLogEventsCommand).resolves({ events: [] });
    const job = await describeTransformJob(aws, settings, "dc-job");
    expect(job.outputPreview).toEqual([
      {
        s3Uri: "s3://artifacts/batch/outputs/x/items.jsonl.out",
        line: 1,
        input: '{"decision":{"id":"item-0"}}',
        output: '{"chosen":"no"}',
      },
      {
        s3Uri: "s3://artifacts/batch/outputs/x/items.jsonl.out",
        line: 2,
        input: '{"decision":{"id":"item-1"}}',
        output: '{"status":400,"error":"too long"}',
      },
    ]);
  });
});

describe("a failed transform job", () => {
  it("carries its data log's first lines, which name the refused record's object where FailureReason does not", async () => {
    sageMaker.on(DescribeTransformJobCommand).resolves({
      TransformJobName: "dc-job",
      TransformJobStatus: "Failed",
      FailureReason: "ClientError: See job logs for more information",
      ModelName: "dc-model",
      TransformInput: {
        DataSource: { S3DataSource: { S3DataType: "S3Prefix", S3Uri: "s3://artifacts/batch/inputs/x/" } },
      },
      TransformOutput: { S3OutputPath: "s3://artifacts/batch/outputs/x/" },
      TransformResources: { InstanceType: "ml.m5.large", InstanceCount: 1 },
    });
    s3.on(ListObjectsV2Command, { Prefix: "batch/outputs/x/" }).resolves({ Contents: [] });
    logs.on(FilterLogEventsCommand).resolves({
      events: [
        { logStreamName: "dc-job/i-1", message: answered(1) },
        {
          logStreamName: "dc-job/i-1/data-log",
          message: "artifacts/batch/inputs/x/items-00002.jsonl: ClientError: 400",
        },
        { logStreamName: "dc-job/i-1/data-log", message: "Message: decisions exceeds the request token budget" },
      ],
    });
    const job = await describeTransformJob(aws, settings, "dc-job");
    expect(job.dataLog).toEqual([
      "artifacts/batch/inputs/x/items-00002.jsonl: ClientError: 400",
      "Message: decisions exceeds the request token budget",
    ]);
  });
});

describe("progress rules", () => {
  it("counts only answered POST /invocations lines, `records` each", () => {
    expect(recordsAnswered([answered(3), answered(1, 503), "not json /invocations", answered(0), "{}"])).toBe(4);
  });

  it("reads only complete lines of a ranged output read", () => {
    expect(outputPreview('{"SageMakerInput":"a","SageMakerOutput":"b"}\n{"SageMakerIn', 5)).toEqual([
      { line: 1, input: "a", output: "b" },
    ]);
  });
});
