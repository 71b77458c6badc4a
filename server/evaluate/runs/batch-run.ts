import { GetObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import type { DescribeTransformJobCommandOutput } from "@aws-sdk/client-sagemaker";
import { RECORD_ERRORS_VARIABLE, recordErrorLineSchema } from "@decision-console/adapter/contract";
import type { BatchEvaluationTarget } from "../../../contract/evaluate/evaluations.ts";
import { BATCH_DATA_FOLDERS } from "../../../contract/stack/console-contract.ts";
import type { AwsClients } from "../../aws/clients.ts";
import { toAwsAppError } from "../../aws/errors.ts";
import { parseS3Uri } from "../../aws/s3-uri.ts";
import { realSleep, type Sleep } from "../../aws/sleep.ts";
import { writeDatasetJsonLines } from "../../batch/dataset-export.ts";
import { describeTransformJobIfAny, startTransformJob, stopTransformJob } from "../../batch/transform-jobs.ts";
import type { ConsoleSettings } from "../../console-settings.ts";
import { AppError } from "../../http/app-error.ts";
import type { Store } from "../../store/store.ts";
import { datasetItems, type StoredItem } from "../datasets/dataset-store.ts";
import { type BatchJobRow, batchJobOf, saveBatchJob } from "./batch-job-store.ts";
import { finishedKeys, finishRun, type RunRow, recordResult, runStatus } from "./run-store.ts";
import { scoreAnswer } from "./score-item.ts";

/** What a run scored by a transform job needs: the console's clients and settings, and how it waits between looks. */
export interface BatchRunDeps {
  aws: Pick<AwsClients, "sageMaker" | "ecr" | "s3" | "codeBuild">;
  settings: ConsoleSettings;
  /** How often the job is described and its new outputs read. */
  pollMs?: number;
  sleep?: Sleep;
}

/** Refused records come back as lines of their own, so a refusal is an item's error and not the job's failure. */
const JOB_ENVIRONMENT = { [RECORD_ERRORS_VARIABLE]: "inline" };
const DEFAULT_POLL_MS = 2_000;
/** Consecutive failed looks at the job (throttling, a network fault) before the run fails. */
const MAX_FAILED_LOOKS = 5;

/**
 * Where a batch run's job and data go: the job is named after the run (so a console that stops between creating the
 * job and storing it finds the job again), input under `batch/inputs/evaluations/<run>/` and output under
 * `batch/outputs/evaluations/<run>/` (the execution role reads only inputs and writes only outputs).
 */
export function planBatchJob(settings: ConsoleSettings, runId: string, target: BatchEvaluationTarget): BatchJobRow {
  if (!settings.artifactBucket) {
    throw new AppError(
      "unavailable",
      "Batch evaluations need the artifact bucket for their data: set CONSOLE_ARTIFACT_BUCKET (the stack's ArtifactBucketName).",
    );
  }
  const root = (folder: string) => `s3://${settings.artifactBucket}/${folder}evaluations/${runId}/`;
  return {
    run_id: runId,
    job_name: `${settings.resourceNamePrefix ?? ""}eval-${runId.replaceAll("-", "").slice(0, 16)}`,
    model_name: target.modelName,
    instance_type: target.instanceType,
    instance_count: target.instanceCount,
    max_concurrent_transforms: target.maxConcurrentTransforms ?? null,
    input_s3_uri: root(BATCH_DATA_FOLDERS.inputs),
    output_s3_uri: root(BATCH_DATA_FOLDERS.outputs),
  };
}

/** Records the run's job and starts it: the dataset written as the job's JSON Lines input, then CreateTransformJob. */
export async function launchBatchJob(deps: BatchRunDeps, store: Store, run: RunRow, job: BatchJobRow): Promise<void> {
  if (!(await batchJobOf(store, run.id))) await saveBatchJob(store, job);
  const { prefix } = parseS3Uri(job.input_s3_uri);
  await writeDatasetJsonLines(deps.aws, deps.settings, store, run.dataset_id, prefix);
  await startTransformJob(
    deps.aws,
    deps.settings,
    {
      name: job.job_name,
      modelName: job.model_name,
      inputS3Uri: job.input_s3_uri,
      outputS3Uri: job.output_s3_uri,
      instanceType: job.instance_type as never,
      instanceCount: job.instance_count,
      maxConcurrentTransforms: job.max_concurrent_transforms ?? undefined,
      batchStrategy: "SingleRecord",
      invocationsTimeoutSeconds: 600,
    },
    JOB_ENVIRONMENT,
  );
}

interface JoinedLine {
  decision?: { id?: unknown };
  SageMakerOutput?: unknown;
}

/**
 * Records the items of every output object not read yet: each line carries its input (JoinSource Input), whose
 * decision id names the item, and the container's answer or, under ADAPTER_RECORD_ERRORS=inline, its refusal.
 * The adapter's own `timing.total_seconds` is the item's latency. A second write of an item is a no-op.
 */
async function collectOutputs(
  deps: BatchRunDeps,
  store: Store,
  job: BatchJobRow,
  items: Map<string, StoredItem>,
  read: Set<string>,
) {
  const { bucket, prefix } = parseS3Uri(job.output_s3_uri);
  let token: string | undefined;
  do {
    const listed = await deps.aws.s3.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
    );
    for (const object of listed.Contents ?? []) {
      const key = object.Key ?? "";
      if (!key.endsWith(".out") || read.has(key)) continue;
      const answer = await deps.aws.s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      const text = (await answer.Body?.transformToString("utf8")) ?? "";
      for (const [index, line] of text.split("\n").entries()) {
        if (line.trim() === "") continue;
        await recordLine(store, job.run_id, items, line, `s3://${bucket}/${key}, line ${index + 1}`);
      }
      read.add(key);
    }
    token = listed.NextContinuationToken;
  } while (token);
}

/** An output the run cannot use: it fails the run at once. */
class BatchOutputError extends Error {}

/** Throttling, a network fault or a 5xx: the next look may succeed. */
function transient(error: unknown): boolean {
  if (error instanceof BatchOutputError) return false;
  const { status } = toAwsAppError(error);
  return status >= 500 || status === 429;
}

async function recordLine(store: Store, runId: string, items: Map<string, StoredItem>, line: string, where: string) {
  let joined: JoinedLine;
  try {
    joined = JSON.parse(line) as JoinedLine;
  } catch {
    throw new BatchOutputError(`${where} of the transform job's output is not JSON.`);
  }
  const item = items.get(String(joined.decision?.id));
  if (!item) throw new BatchOutputError(`${where} of the transform job's output is for no decision of the dataset.`);
  const refusal = recordErrorLineSchema.safeParse(joined.SageMakerOutput);
  const score = scoreAnswer(item.decision, {
    status: refusal.success ? refusal.data.status : 200,
    body: joined.SageMakerOutput,
    latencyMs: 0,
    attempts: 1,
  });
  await recordResult(store, {
    ...score,
    latencyMs: score.adapterMs ?? 0,
    runId,
    slot: 0,
    position: item.position,
    itemId: item.decision.id,
    finishedAt: new Date().toISOString(),
  });
}

/**
 * Works a run scored by a transform job until the job ends: the job is described (created again when the console
 * stopped before creating it), each output object is recorded once it is written, and a completed job completes
 * the run, a failed or stopped one fails it with the reason. On shutdown it returns and the job keeps running; the
 * next start attaches to it again. A cancelled run stops its job.
 */
export async function workBatchRun(deps: BatchRunDeps, store: Store, run: RunRow, signal?: AbortSignal): Promise<void> {
  const job = await batchJobOf(store, run.id);
  if (!job) throw new Error(`The evaluation ${run.id} has no transform job.`);
  const items = new Map((await datasetItems(store, run.dataset_id)).map((item) => [item.decision.id, item]));
  const sleep = deps.sleep ?? realSleep;
  const read = new Set<string>();
  let failedLooks = 0;
  for (;;) {
    if ((await runStatus(store, run.id)) === "cancelled") {
      await stopTransformJob(deps.aws, deps.settings, job.job_name).catch(() => undefined);
      return;
    }
    if (signal?.aborted) return;
    let described: DescribeTransformJobCommandOutput | null;
    try {
      // None: the console stopped before creating it.
      described = await describeTransformJobIfAny(deps.aws, job.job_name);
      if (!described) {
        await launchBatchJob(deps, store, run, job);
        continue;
      }
      await collectOutputs(deps, store, job, items, read);
      failedLooks = 0;
    } catch (error) {
      if (!transient(error)) throw error;
      failedLooks += 1;
      if (failedLooks >= MAX_FAILED_LOOKS) throw error;
      described = null;
    }
    const status = described?.TransformJobStatus;
    if (status === "Completed") {
      const missing = items.size - (await finishedKeys(store, run.id)).size;
      if (missing > 0)
        await finishRun(
          store,
          run.id,
          "failed",
          `The transform job ${job.job_name} wrote no line for ${missing} item(s).`,
        );
      else await finishRun(store, run.id, "completed");
      return;
    }
    if (status === "Failed" || status === "Stopped") {
      const reason = described?.FailureReason ? `: ${described.FailureReason}` : ".";
      await finishRun(
        store,
        run.id,
        "failed",
        `The transform job ${job.job_name} ${status === "Failed" ? "failed" : "was stopped"}${reason}`,
      );
      return;
    }
    try {
      await sleep(deps.pollMs ?? DEFAULT_POLL_MS, signal);
    } catch {
      // Aborted: cancelled (stop the job above) or shutting down (leave it running).
    }
  }
}
