import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { containedPath } from "../contained-path.ts";
import { AdapterProcess } from "../endpoints/adapter-process.ts";
import {
  type ExecutionRolePull,
  type LocalCapacity,
  type PreparedContainer,
  ProvisioningError,
  prepareContainer,
} from "../endpoints/container-launch.ts";
import type { RequestAuthorizer } from "../iam/request-authorizer.ts";
import type { ImageRegistry } from "../image-registry.ts";
import type { LogStore } from "../log-store.ts";
import type { ObjectStore } from "../object-store.ts";
import type { SageMakerStore } from "../sagemaker-store.ts";
import { refusedRecordLines, SEE_JOB_LOGS } from "./data-log.ts";
import { type BatchingSettings, joinedOutput, type MiniBatch, miniBatches, splitAnswer } from "./records.ts";
import { clientError, type TransformInputObject, TransformJobError, transformInputs } from "./transform-inputs.ts";
import type { TransformJobDoc, TransformStore } from "./transform-store.ts";

/**
 * "Log Amazon SageMaker AI Events with Amazon CloudWatch": batch transform jobs log to this one group, in a stream
 * per job and instance, `<job name>/<instance id>`.
 */
export const TRANSFORM_JOB_LOG_GROUP = "/aws/sagemaker/TransformJobs";

export interface TransformRunnerDeps {
  jobs: TransformStore;
  sageMaker: SageMakerStore;
  objects: ObjectStore;
  registry: ImageRegistry;
  logs: LogStore;
  iam: RequestAuthorizer;
  capacity: LocalCapacity;
  executionRoleMayPull: ExecutionRolePull;
  dataDir: string;
}

interface Instance {
  id: string;
  process: AdapterProcess;
}

interface ActiveJob {
  controller: AbortController;
  stopRequested: boolean;
  done: Promise<void>;
}

/** The job's settings once those left unset are taken from the container's GET /execution-parameters. */
interface JobSettings {
  concurrency: number;
  batching: BatchingSettings;
  timeoutS: number;
  retries: number;
}

const HEALTH_TIMEOUT_MS = 600_000;
/** SageMaker's defaults when neither the job nor /execution-parameters set them. */
const DEFAULT_PAYLOAD_MB = 6;
const DEFAULT_INVOCATION_TIMEOUT_S = 600;
const DEFAULT_INVOCATION_RETRIES = 3;
const MIB = 1024 * 1024;

function errorMessageOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown };
    return String(parsed.error ?? parsed.message ?? body);
  } catch {
    return body.slice(0, 500);
  }
}

/**
 * Why an object's transform failed: the refusal of its earliest record when records were refused (the other
 * workers' requests, aborted because of it, are not the reason), else the first error that is not such an abort.
 */
function firstFailure(results: PromiseSettledResult<unknown>[]): unknown {
  const reasons = results.flatMap((result) => (result.status === "rejected" ? [result.reason as unknown] : []));
  const refusals = reasons.filter((reason): reason is TransformJobError => reason instanceof TransformJobError);
  const earliest = refusals.sort((a, b) => (a.line ?? Number.POSITIVE_INFINITY) - (b.line ?? Number.POSITIVE_INFINITY));
  return earliest[0] ?? reasons.find((reason) => (reason as Error)?.name !== "AbortError") ?? reasons[0];
}

/**
 * Runs local transform jobs as SageMaker does: InstanceCount adapter processes of the model's image with the job's
 * environment (SAGEMAKER_BATCH, SAGEMAKER_MAX_PAYLOAD_IN_MB), the settings left unset from /execution-parameters,
 * every input object's records split across the instances (at most MaxConcurrentTransforms requests in flight on
 * each), `<key>.out` written in input order, progress persisted after every answered mini-batch so that a restart
 * of the control plane resumes where it stopped, and the processes stopped at the end.
 */
export class TransformRunner {
  private readonly active = new Map<string, ActiveJob>();
  private closed = false;

  constructor(private readonly deps: TransformRunnerDeps) {}

  start(name: string) {
    const active: ActiveJob = { controller: new AbortController(), stopRequested: false, done: Promise.resolve() };
    this.active.set(name, active);
    active.done = this.run(name, active)
      .catch((error) => {
        console.error(
          JSON.stringify({ level: "error", msg: "local transform job failed", name, error: String(error) }),
        );
      })
      .finally(() => this.active.delete(name));
  }

  /** StopTransformJob: Stopping at once, Stopped when the instances are down. */
  stop(name: string) {
    this.deps.jobs.update(name, { status: "Stopping" });
    const active = this.active.get(name);
    if (!active) return this.deps.jobs.update(name, { status: "Stopped" });
    active.stopRequested = true;
    active.controller.abort();
  }

  /** Records answered so far (persisted), over every input object. */
  recordsDone(name: string): number {
    return this.deps.jobs.recordsDone(name);
  }

  /** Resolves once the job's run has ended (tests). */
  settled(name: string): Promise<void> {
    return this.active.get(name)?.done ?? Promise.resolve();
  }

  /** After a restart: jobs in progress resume where their progress stopped; a stop asked before it completes. */
  restore() {
    for (const job of this.deps.jobs.jobs()) {
      if (job.status === "InProgress") this.start(job.doc.TransformJobName);
      if (job.status === "Stopping") this.deps.jobs.update(job.doc.TransformJobName, { status: "Stopped" });
    }
  }

  /** Stops every job's processes; jobs keep their status and progress, to resume at the next start. */
  async close() {
    this.closed = true;
    const all = [...this.active.values()];
    for (const job of all) job.controller.abort();
    await Promise.all(all.map((job) => job.done));
  }

  private note(name: string, stream: string, line: string) {
    this.deps.logs.append(TRANSFORM_JOB_LOG_GROUP, `${name}/${stream}`, line);
  }

  private async run(name: string, active: ActiveJob) {
    const { jobs, sageMaker, objects, iam } = this.deps;
    const record = jobs.job(name);
    if (!record || this.closed) return;
    const doc = record.doc;
    const note = (line: string) => this.note(name, "local-control-plane", line);
    const signal = active.controller.signal;
    const instances: Instance[] = [];
    // Whatever goes wrong from here ends the job Failed, so a restart never resumes a job that cannot start.
    try {
      jobs.markStarted(name);
      const region = doc.TransformJobArn.split(":")[3] ?? "";
      const jobDir = containedPath(this.deps.dataDir, "transform-jobs", name.toLowerCase());
      const model = sageMaker.model(doc.ModelName);
      if (!model) throw clientError(`Could not find model "${doc.ModelName}".`);
      const inputs = transformInputs(doc, objects, iam, model.ExecutionRoleArn, region);
      const extraEnvironment: Record<string, string> = { ...doc.Environment, SAGEMAKER_BATCH: "true" };
      if (doc.MaxPayloadInMB !== undefined) extraEnvironment.SAGEMAKER_MAX_PAYLOAD_IN_MB = String(doc.MaxPayloadInMB);
      const prepared = await prepareContainer(this.deps, {
        model,
        label: `transform job ${name}`,
        instanceType: doc.TransformResources.InstanceType,
        modelDir: path.join(jobDir, "model"),
        extraEnvironment,
        note,
      });
      for (let index = 0; index < doc.TransformResources.InstanceCount; index++) {
        instances.push(await this.startInstance(name, jobDir, prepared));
      }
      try {
        await Promise.all(instances.map((instance) => instance.process.waitUntilHealthy(HEALTH_TIMEOUT_MS)));
      } catch (error) {
        throw clientError(`The container did not pass the ping health check: ${(error as Error).message}`);
      }
      signal.throwIfAborted();
      const settings = await this.settings(doc, instances[0]!, note);
      for (const input of inputs) await this.transformObject(doc, jobDir, input, settings, instances, signal);
      jobs.update(name, { status: "Completed" });
      note(`Completed: ${inputs.length} input object(s) transformed.`);
    } catch (error) {
      if (active.stopRequested) {
        jobs.update(name, { status: "Stopped" });
        note("Stopped by StopTransformJob.");
      } else if (!this.closed) {
        const reason =
          error instanceof TransformJobError
            ? error.message
            : error instanceof ProvisioningError
              ? `ClientError: ${error.message}`
              : `InternalServerError: ${String(error)}`;
        note(reason);
        jobs.update(name, { status: "Failed", failureReason: reason });
      }
    } finally {
      await Promise.all(instances.map((instance) => instance.process.stop()));
    }
  }

  private async startInstance(name: string, jobDir: string, prepared: PreparedContainer): Promise<Instance> {
    const id = `i-${crypto.randomUUID().replaceAll("-", "").slice(0, 17)}`;
    const process = new AdapterProcess({
      program: prepared.program,
      contract: prepared.contract,
      modelDir: path.join(jobDir, "model"),
      home: path.join(jobDir, "instances", id),
      environment: prepared.environment,
      onLine: (line) => this.note(name, id, line),
    });
    await process.start();
    return { id, process };
  }

  /** The settings the job leaves unset, from the container's GET /execution-parameters as SageMaker asks it. */
  private async settings(doc: TransformJobDoc, instance: Instance, note: (line: string) => void): Promise<JobSettings> {
    let parameters: { MaxConcurrentTransforms?: number; BatchStrategy?: string; MaxPayloadInMB?: number } = {};
    let asked = "not asked";
    if (!doc.MaxConcurrentTransforms || doc.BatchStrategy === undefined || doc.MaxPayloadInMB === undefined) {
      try {
        const response = await fetch(`${instance.process.url}/execution-parameters`, {
          signal: AbortSignal.timeout(10_000),
        });
        asked = `GET /execution-parameters answered ${response.status}`;
        if (response.ok) parameters = (await response.json()) as typeof parameters;
        else await response.arrayBuffer();
      } catch (error) {
        asked = `GET /execution-parameters failed: ${(error as Error).message}`;
      }
    }
    const strategies: Record<string, BatchingSettings["strategy"]> = {
      MULTI_RECORD: "MultiRecord",
      SINGLE_RECORD: "SingleRecord",
    };
    const concurrency = doc.MaxConcurrentTransforms || parameters.MaxConcurrentTransforms || 1;
    const strategy = doc.BatchStrategy ?? strategies[parameters.BatchStrategy ?? ""] ?? "SingleRecord";
    const payloadMb = doc.MaxPayloadInMB ?? parameters.MaxPayloadInMB ?? DEFAULT_PAYLOAD_MB;
    note(
      `Settings: MaxConcurrentTransforms=${concurrency}, BatchStrategy=${strategy}, MaxPayloadInMB=${payloadMb} (${asked}).`,
    );
    const split = doc.TransformInput.SplitType ?? "None";
    return {
      concurrency,
      batching: {
        splitType: split === "Line" ? "Line" : "None",
        strategy,
        maxPayloadBytes: payloadMb * MIB,
        gzip: doc.TransformInput.CompressionType === "Gzip",
      },
      timeoutS: doc.ModelClientConfig?.InvocationsTimeoutInSeconds ?? DEFAULT_INVOCATION_TIMEOUT_S,
      retries: doc.ModelClientConfig?.InvocationsMaxRetries ?? DEFAULT_INVOCATION_RETRIES,
    };
  }

  /**
   * Transforms one input object: mini-batches go to whichever instance's request slot is free, answers are written
   * to a part file in input order, and progress (records answered, bytes kept) is saved after each write; the part
   * becomes `<key>.out` once every record is answered.
   */
  private async transformObject(
    doc: TransformJobDoc,
    jobDir: string,
    input: TransformInputObject,
    settings: JobSettings,
    instances: Instance[],
    jobSignal: AbortSignal,
  ) {
    const { jobs, objects } = this.deps;
    const name = doc.TransformJobName;
    let progress = jobs.progress(name, input.key);
    if (progress.completed) return;
    const part = path.join(jobDir, "parts", `${createHash("sha256").update(input.key).digest("hex")}.part`);
    fs.mkdirSync(path.dirname(part), { recursive: true });
    const kept = fs.existsSync(part) ? fs.statSync(part).size : 0;
    if (kept < progress.bytesWritten) progress = { recordsDone: 0, bytesWritten: 0, completed: false };
    fs.writeFileSync(part, "", { flag: "a" });
    fs.truncateSync(part, progress.bytesWritten);
    const object = objects.find(input.bucket, input.key);
    if (!object) throw clientError(`Could not read s3://${input.bucket}/${input.key}: the object does not exist.`);
    const where = (line: number) => `s3://${input.bucket}/${input.key}, line ${line}`;
    const joinInput = doc.DataProcessing?.JoinSource === "Input";
    const lineAssembled = doc.TransformOutput.AssembleWith === "Line";
    const batches = miniBatches(object.file, progress.recordsDone, settings.batching, where);
    // Workers share one reader: each next() waits for the one before it.
    let chain: Promise<unknown> = Promise.resolve();
    const nextBatch = () => {
      const next = chain.then(() => batches.next());
      chain = next.catch(() => undefined);
      return next;
    };

    const controller = new AbortController();
    const signal = AbortSignal.any([jobSignal, controller.signal]);
    const answered = new Map<number, { count: number; outputs: string[] }>();
    const waiting: (() => void)[] = [];
    const window = instances.length * settings.concurrency * 4;
    let taken = 0;
    let flushed = 0;
    let { recordsDone, bytesWritten } = progress;
    const fd = fs.openSync(part, "a");
    const flush = () => {
      while (answered.has(flushed)) {
        const { count, outputs } = answered.get(flushed)!;
        answered.delete(flushed);
        flushed += 1;
        const text = lineAssembled ? outputs.map((output) => `${output}\n`).join("") : outputs.join("");
        fs.writeSync(fd, text);
        bytesWritten += Buffer.byteLength(text);
        recordsDone += count;
      }
      jobs.saveProgress(name, input.key, { recordsDone, bytesWritten, completed: false });
      for (const resolve of waiting.splice(0)) resolve();
    };
    const worker = async (instance: Instance) => {
      for (;;) {
        while (taken - flushed >= window && !signal.aborted)
          await new Promise<void>((resolve) => waiting.push(resolve));
        signal.throwIfAborted();
        const next = await nextBatch();
        if (next.done) return;
        taken += 1;
        const batch = next.value;
        const body = await this.invoke(doc, instance, batch, settings, signal, input, where);
        const outputs = splitAnswer(body, batch, joinInput, where(batch.first));
        answered.set(batch.seq, {
          count: batch.records.length,
          outputs: outputs.map((output, index) => joinedOutput(batch.records[index] ?? "", output, joinInput)),
        });
        flush();
      }
    };
    const workers = instances.flatMap((instance) =>
      Array.from({ length: settings.concurrency }, () =>
        worker(instance).catch((error: unknown) => {
          controller.abort();
          for (const resolve of waiting.splice(0)) resolve();
          throw error;
        }),
      ),
    );
    const results = await Promise.allSettled(workers);
    fs.closeSync(fd);
    await batches.return(undefined);
    jobSignal.throwIfAborted();
    const failure = firstFailure(results);
    if (failure) throw failure;
    await objects.putObject(input.outputBucket, input.outputKey, fs.createReadStream(part), {
      contentType: doc.TransformOutput.Accept ?? null,
    });
    jobs.saveProgress(name, input.key, { recordsDone, bytesWritten, completed: true });
    fs.rmSync(part, { force: true });
    this.note(
      name,
      "local-control-plane",
      `s3://${input.bucket}/${input.key}: ${recordsDone} record(s) -> s3://${input.outputBucket}/${input.outputKey}`,
    );
  }

  /**
   * One request to /invocations, retried (InvocationsMaxRetries) when the container times out, cannot be reached or
   * answers 5xx; a 4xx refusal fails the job at once. A refused record fails it with SageMaker's "ClientError: See
   * job logs for more information", the object, the record's line and the container's message in the data log.
   */
  private async invoke(
    doc: TransformJobDoc,
    instance: Instance,
    batch: MiniBatch,
    settings: JobSettings,
    signal: AbortSignal,
    input: TransformInputObject,
    where: (line: number) => string,
  ): Promise<string> {
    const headers: Record<string, string> = {};
    if (doc.TransformInput.ContentType) headers["content-type"] = doc.TransformInput.ContentType;
    if (doc.TransformOutput.Accept) headers.accept = doc.TransformOutput.Accept;
    const body = batch.records.join("\n");
    const dataLog = (line: string) => this.note(doc.TransformJobName, `${instance.id}/data-log`, line);
    for (let attempt = 0; ; attempt++) {
      // The container's answer other than 200, or why there was none.
      let failure: { status: number; message: string } | string;
      let line = batch.first;
      try {
        const response = await fetch(`${instance.process.url}/invocations`, {
          method: "POST",
          headers,
          body,
          signal: AbortSignal.any([signal, AbortSignal.timeout(settings.timeoutS * 1000)]),
        });
        const text = await response.text();
        if (response.ok) return text;
        let message = errorMessageOf(text);
        const inBatch = /^line (\d+): ([\s\S]*)$/.exec(message);
        if (inBatch) {
          line = batch.first + Number(inBatch[1]) - 1;
          message = inBatch[2] ?? message;
        }
        failure = { status: response.status, message };
        if (response.status < 500) attempt = settings.retries;
      } catch (error) {
        signal.throwIfAborted();
        failure =
          (error as Error).name === "TimeoutError"
            ? `the container did not answer within InvocationsTimeoutInSeconds (${settings.timeoutS} s)`
            : `the container could not be reached: ${(error as Error).message}`;
      }
      if (attempt >= settings.retries) {
        if (typeof failure !== "string") {
          for (const text of refusedRecordLines(input, line, failure.status, failure.message, new Date()))
            dataLog(text);
          throw clientError(SEE_JOB_LOGS, line);
        }
        const reason = `${where(line)}: ${failure}`;
        dataLog(reason);
        throw clientError(reason, line);
      }
      await sleep(500 * (attempt + 1), undefined, { signal });
    }
  }
}
