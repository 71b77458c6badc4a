import { FilterLogEventsCommand } from "@aws-sdk/client-cloudwatch-logs";
import { GetObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import {
  CreateTransformJobCommand,
  DeleteModelCommand,
  DescribeModelCommand,
  DescribeTransformJobCommand,
  type DescribeTransformJobCommandOutput,
  ListTransformJobsCommand,
  type TransformJobSummary as SdkSummary,
  StopTransformJobCommand,
  type TransformInstanceType,
} from "@aws-sdk/client-sagemaker";
import {
  batchCudaReason,
  batchModelDataReason,
  oneModelSource,
  type StartTransformJobRequest,
  type TransformJobDetail,
  type TransformJobStatus,
  type TransformJobSummary,
} from "../../contract/batch/transform-jobs.ts";
import { priceForInstances } from "../../contract/pricing/prices.ts";
import { TRANSFORM_JOB_LOG_GROUP } from "../../contract/stack/console-contract.ts";
import type { AwsClients } from "../aws/clients.ts";
import { awsCall, toAwsAppError } from "../aws/errors.ts";
import { parseS3Uri } from "../aws/s3-uri.ts";
import type { ConsoleSettings } from "../console-settings.ts";
import { bestEffort } from "../endpoints/deploy.ts";
import { modelRecordsOf } from "../endpoints/resources.ts";
import { AppError } from "../http/app-error.ts";
import { listAdapterImages } from "../images/images.ts";
import { createBuildOutputModel } from "./build-output-model.ts";
import { checkTransformDataLocations, defaultOutputS3Uri } from "./transform-data.ts";
import { outputPreview, recordsAnswered } from "./transform-progress.ts";

/** Every line of a job's input is a decision request body; every output line carries its input (JoinSource). */
const JSON_LINES = "application/jsonlines";
const LOG_LINES = 200;
/** Outputs larger than this in total are not read to count their lines. */
const COUNTED_OUTPUT_BYTES = 16 * 1024 * 1024;
const LISTED_PAGES = 5;
/** Pages of the job's log read to count the records answered (each up to 10,000 events or 1 MB). */
const LOG_PAGES = 20;
/** How much of the first output objects the preview reads, and how many records it shows. */
const PREVIEW_BYTES = 64 * 1024;
const PREVIEW_RECORDS = 5;
/**
 * The first lines of the jobs' data logs (`<job>/<instance-id>/data-log`), where SageMaker names the input object a
 * record of which the container refused, and the container's message; AWS's FailureReason for it says only
 * "ClientError: See job logs for more information".
 */
const DATA_LOG_LINES = 10;

function requirePrefix(settings: ConsoleSettings, name: string) {
  const prefix = settings.resourceNamePrefix;
  if (prefix && !name.startsWith(prefix)) {
    throw new AppError(
      "bad_request",
      `name: must start with "${prefix}", the prefix the console's IAM policy allows (CONSOLE_RESOURCE_PREFIX).`,
    );
  }
}

/**
 * A model the console deployed, after DescribeModel: a model that asks for CUDA is refused (Batch Transform chooses
 * no inference AMI, so the driver the cuda image needs is not guaranteed), and so is one whose data is uncompressed
 * (ModelDataSource, which batch transform does not accept).
 */
async function checkDeployedModel(aws: Pick<AwsClients, "sageMaker" | "ecr">, settings: ConsoleSettings, name: string) {
  requirePrefix(settings, name);
  const model = await awsCall(`model "${name}"`, () =>
    aws.sageMaker.send(new DescribeModelCommand({ ModelName: name })),
  );
  const container = model.PrimaryContainer ?? model.Containers?.[0];
  if (container?.ModelDataSource) {
    throw new AppError("bad_request", `modelName: "${name}" has uncompressed model data. ${batchModelDataReason}`);
  }
  const digest = container?.Image?.split("@")[1];
  const images = digest ? await listAdapterImages(aws.ecr, settings.adapterRepository) : [];
  const variant = images.find((image) => image.digest === digest)?.variant;
  if (container?.Environment?.ADAPTER_GPU === "cuda" || variant === "cuda") {
    throw new AppError(
      "bad_request",
      `modelName: "${name}" runs the cuda image. ${batchCudaReason} Deploy the cpu image for batch jobs.`,
    );
  }
}

/** The job, or null when SageMaker has none of that name. */
export async function describeTransformJobIfAny(
  aws: Pick<AwsClients, "sageMaker">,
  name: string,
): Promise<DescribeTransformJobCommandOutput | null> {
  try {
    return await aws.sageMaker.send(new DescribeTransformJobCommand({ TransformJobName: name }));
  } catch (error) {
    const mapped = toAwsAppError(error, `transform job "${name}"`);
    if (mapped.status === 404) return null;
    throw mapped;
  }
}

async function refuseExistingJob(aws: Pick<AwsClients, "sageMaker">, name: string) {
  if (!(await describeTransformJobIfAny(aws, name))) return;
  throw new AppError("conflict", `A transform job named "${name}" already exists; job names are never reused.`);
}

/**
 * CreateTransformJob on a model the console deployed (`modelName`), or on a model the console creates for the job
 * from a build output and a cpu image (`buildOutput`; the model is named as the job and removed again if the job
 * cannot be created).
 */
export async function startTransformJob(
  aws: Pick<AwsClients, "sageMaker" | "ecr" | "codeBuild">,
  settings: ConsoleSettings,
  request: StartTransformJobRequest,
  /** The job's Environment for the container (e.g. an evaluation's ADAPTER_RECORD_ERRORS=inline). */
  environment?: Record<string, string>,
): Promise<TransformJobSummary> {
  requirePrefix(settings, request.name);
  const modelName = request.buildOutput ? request.name : request.modelName;
  if (!modelName) throw new AppError("bad_request", `modelName: ${oneModelSource}.`);
  const output = request.outputS3Uri ?? defaultOutputS3Uri(settings, request.name);
  if (request.buildOutput) {
    await refuseExistingJob(aws, request.name);
    checkTransformDataLocations(settings, request.inputS3Uri, output);
    await createBuildOutputModel(aws, settings, modelName, request.buildOutput);
  } else {
    await checkDeployedModel(aws, settings, modelName);
    checkTransformDataLocations(settings, request.inputS3Uri, output);
  }
  try {
    await aws.sageMaker.send(
      new CreateTransformJobCommand({
        TransformJobName: request.name,
        ModelName: modelName,
        MaxConcurrentTransforms: request.maxConcurrentTransforms,
        MaxPayloadInMB: request.maxPayloadInMB,
        BatchStrategy: request.batchStrategy,
        ModelClientConfig: { InvocationsTimeoutInSeconds: request.invocationsTimeoutSeconds, InvocationsMaxRetries: 1 },
        TransformInput: {
          DataSource: { S3DataSource: { S3DataType: "S3Prefix", S3Uri: request.inputS3Uri } },
          ContentType: JSON_LINES,
          SplitType: "Line",
        },
        TransformOutput: { S3OutputPath: output, Accept: JSON_LINES, AssembleWith: "Line" },
        TransformResources: {
          InstanceType: request.instanceType as TransformInstanceType,
          InstanceCount: request.instanceCount,
        },
        DataProcessing: { JoinSource: "Input" },
        Environment: environment,
      }),
    );
  } catch (error) {
    if (request.buildOutput)
      await bestEffort(() => aws.sageMaker.send(new DeleteModelCommand({ ModelName: modelName })));
    throw toAwsAppError(error, `transform job "${request.name}"`);
  }
  return {
    name: request.name,
    status: "InProgress",
    createdAt: new Date().toISOString(),
    endedAt: null,
    failureReason: null,
    durationSeconds: 0,
  };
}

function durationOf(start: Date | undefined, end: Date | undefined): number | null {
  if (!start) return null;
  return Math.max(0, Math.round(((end ?? new Date()).getTime() - start.getTime()) / 1000));
}

function summaryOf(job: SdkSummary | DescribeTransformJobCommandOutput): TransformJobSummary {
  const created = job.CreationTime ?? new Date(0);
  return {
    name: job.TransformJobName ?? "",
    status: (job.TransformJobStatus ?? "InProgress") as TransformJobStatus,
    createdAt: created.toISOString(),
    endedAt: job.TransformEndTime?.toISOString() ?? null,
    failureReason: job.FailureReason ?? null,
    durationSeconds: durationOf(
      "TransformStartTime" in job ? (job.TransformStartTime ?? created) : created,
      job.TransformEndTime,
    ),
  };
}

/** The console's jobs (names with its prefix), newest first, from up to five pages of ListTransformJobs. */
export async function listTransformJobs(
  aws: Pick<AwsClients, "sageMaker">,
  settings: ConsoleSettings,
): Promise<TransformJobSummary[]> {
  const jobs: TransformJobSummary[] = [];
  let token: string | undefined;
  for (let page = 0; page < LISTED_PAGES; page++) {
    const listed = await awsCall("transform jobs", () =>
      aws.sageMaker.send(
        new ListTransformJobsCommand({
          SortBy: "CreationTime",
          SortOrder: "Descending",
          MaxResults: 100,
          NextToken: token,
        }),
      ),
    );
    for (const job of listed.TransformJobSummaries ?? []) {
      if (!settings.resourceNamePrefix || job.TransformJobName?.startsWith(settings.resourceNamePrefix)) {
        jobs.push(summaryOf(job));
      }
    }
    token = listed.NextToken;
    if (!token) break;
  }
  return jobs;
}

/** Objects under a prefix, or null when the console may not list it (an input outside batch/). */
async function listObjects(aws: Pick<AwsClients, "s3">, uri: string) {
  const { bucket, prefix } = parseS3Uri(uri);
  try {
    const listed = await aws.s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, MaxKeys: 1000 }));
    return (listed.Contents ?? []).filter((object) => !object.Key?.endsWith("/"));
  } catch {
    return null;
  }
}

async function countLines(aws: Pick<AwsClients, "s3">, bucket: string, keys: string[]): Promise<number> {
  let lines = 0;
  for (const key of keys) {
    const object = await aws.s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const bytes = (await object.Body?.transformToByteArray()) ?? new Uint8Array();
    for (const byte of bytes) if (byte === 10) lines += 1;
  }
  return lines;
}

/** The job's log: its last lines, and the records its containers answered (every page read, up to LOG_PAGES). */
async function jobLogs(
  aws: Pick<AwsClients, "logs">,
  name: string,
): Promise<{ lines: TransformJobDetail["logs"]; recordsAnswered: number | null; dataLog: string[] }> {
  const lines: TransformJobDetail["logs"] = [];
  const dataLog: string[] = [];
  let answered = 0;
  let token: string | undefined;
  try {
    for (let page = 0; page < LOG_PAGES; page++) {
      const { events = [], nextToken } = await aws.logs.send(
        new FilterLogEventsCommand({
          logGroupName: TRANSFORM_JOB_LOG_GROUP,
          logStreamNamePrefix: `${name}/`,
          nextToken: token,
        }),
      );
      answered += recordsAnswered(events.map((event) => event.message ?? ""));
      for (const event of events) {
        if (dataLog.length < DATA_LOG_LINES && event.logStreamName?.endsWith("/data-log")) {
          dataLog.push(event.message ?? "");
        }
      }
      for (const event of events) {
        lines.push({
          stream: event.logStreamName ?? "",
          timestamp: new Date(event.timestamp ?? 0).toISOString(),
          message: event.message ?? "",
        });
      }
      lines.splice(0, Math.max(0, lines.length - LOG_LINES));
      token = nextToken;
      if (!token) return { lines, recordsAnswered: answered, dataLog };
    }
    // More log than the console reads: the count would fall short, so none is given.
    return { lines, recordsAnswered: null, dataLog };
  } catch (error) {
    // A job that has not started writes no log group yet.
    if ((error as { name?: string }).name === "ResourceNotFoundException") {
      return { lines: [], recordsAnswered: 0, dataLog: [] };
    }
    throw toAwsAppError(error, `logs of transform job "${name}"`);
  }
}

/** The first records of the first output objects, each with its input line. */
async function previewOutputs(
  aws: Pick<AwsClients, "s3">,
  bucket: string,
  keys: string[],
): Promise<TransformJobDetail["outputPreview"]> {
  const preview: TransformJobDetail["outputPreview"] = [];
  for (const key of keys) {
    if (preview.length >= PREVIEW_RECORDS) break;
    const object = await aws.s3.send(
      new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=0-${PREVIEW_BYTES - 1}` }),
    );
    const text = (await object.Body?.transformToString("utf-8")) ?? "";
    const records = outputPreview(text, PREVIEW_RECORDS - preview.length);
    preview.push(...records.map((record) => ({ s3Uri: `s3://${bucket}/${key}`, ...record })));
  }
  return preview;
}

/** The job's model as the detail shows it; null once the model was deleted. */
async function jobModel(aws: Pick<AwsClients, "sageMaker">, name: string): Promise<TransformJobDetail["model"]> {
  try {
    const model = await aws.sageMaker.send(new DescribeModelCommand({ ModelName: name }));
    const container = model.PrimaryContainer ?? model.Containers?.[0];
    const records = await modelRecordsOf(aws.sageMaker, model);
    return { imageUri: container?.Image ?? null, sourceBuildId: records.sourceBuildId ?? null };
  } catch (error) {
    const mapped = toAwsAppError(error, `model "${name}"`);
    if (mapped.status === 404) return null;
    throw mapped;
  }
}

/** One job: its definition, failure reason, the outputs written so far (progress), a cost estimate and its logs. */
export async function describeTransformJob(
  aws: Pick<AwsClients, "sageMaker" | "s3" | "logs">,
  settings: ConsoleSettings,
  name: string,
): Promise<TransformJobDetail> {
  requirePrefix(settings, name);
  const job = await awsCall(`transform job "${name}"`, () =>
    aws.sageMaker.send(new DescribeTransformJobCommand({ TransformJobName: name })),
  );
  const inputUri = job.TransformInput?.DataSource?.S3DataSource?.S3Uri ?? "";
  const outputUri = job.TransformOutput?.S3OutputPath ?? "";
  const [inputs, outputs] = await Promise.all([listObjects(aws, inputUri), listObjects(aws, outputUri)]);
  const written = (outputs ?? []).filter((object) => object.Key?.endsWith(".out"));
  const { bucket: outputBucket } = parseS3Uri(outputUri);
  const bytes = written.reduce((sum, object) => sum + (object.Size ?? 0), 0);
  const recordsDone =
    outputs && bytes <= COUNTED_OUTPUT_BYTES
      ? await countLines(
          aws,
          outputBucket,
          written.map((object) => object.Key ?? ""),
        ).catch(() => null)
      : null;
  const inputBytes = (inputs ?? []).reduce((sum, object) => sum + (object.Size ?? 0), 0);
  const { bucket: inputBucket } = parseS3Uri(inputUri);
  const inputRecords =
    inputs && inputBytes <= COUNTED_OUTPUT_BYTES
      ? await countLines(
          aws,
          inputBucket,
          inputs.map((object) => object.Key ?? ""),
        ).catch(() => null)
      : null;
  const logs = await jobLogs(aws, name);
  const outputPreviewRecords = await previewOutputs(
    aws,
    outputBucket,
    written.map((object) => object.Key ?? ""),
  ).catch(() => []);
  const summary = summaryOf(job);
  const instanceType = job.TransformResources?.InstanceType ?? "";
  const instanceCount = job.TransformResources?.InstanceCount ?? 1;
  const hourly = priceForInstances(instanceType, instanceCount);
  return {
    ...summary,
    modelName: job.ModelName ?? "",
    model: job.ModelName ? await jobModel(aws, job.ModelName) : null,
    inputS3Uri: inputUri,
    outputS3Uri: outputUri,
    instanceType,
    instanceCount,
    maxConcurrentTransforms: job.MaxConcurrentTransforms ?? null,
    batchStrategy: job.BatchStrategy ?? null,
    maxPayloadInMB: job.MaxPayloadInMB ?? null,
    inputObjects: inputs?.length ?? null,
    outputs: written.map((object) => ({ s3Uri: `s3://${outputBucket}/${object.Key}`, bytes: object.Size ?? 0 })),
    recordsDone,
    inputRecords,
    recordsAnswered: logs.recordsAnswered,
    dataLog: summary.status === "Failed" ? logs.dataLog : [],
    outputPreview: outputPreviewRecords,
    costEstimateUsd:
      hourly === null || summary.durationSeconds === null
        ? null
        : Math.round(((hourly * summary.durationSeconds) / 3600) * 10_000) / 10_000,
    logs: logs.lines,
  };
}

export async function stopTransformJob(aws: Pick<AwsClients, "sageMaker">, settings: ConsoleSettings, name: string) {
  requirePrefix(settings, name);
  try {
    await aws.sageMaker.send(new StopTransformJobCommand({ TransformJobName: name }));
  } catch (error) {
    const mapped = toAwsAppError(error, `transform job "${name}"`);
    // StopTransformJob refuses a job that has ended: that is a state conflict, not bad input.
    if (mapped.status === 400 && /status/.test(mapped.message)) throw new AppError("conflict", mapped.message);
    throw mapped;
  }
  return { name, status: "Stopping" as const };
}
