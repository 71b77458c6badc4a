import fs from "node:fs";
import { Readable } from "node:stream";
import type { AsyncEndpointMetric } from "../alarms/sagemaker-endpoint-metrics.ts";
import { capturesInput, type DataCapture, MAX_CAPTURED_INPUT_BYTES } from "../capture/data-capture.ts";
import { type EndpointRunner, endpointLogGroup, type InstanceAddress } from "../endpoints/endpoint-runner.ts";
import type { RequestAuthorizer } from "../iam/request-authorizer.ts";
import type { LocalPrincipal } from "../local-credentials.ts";
import type { LogStore } from "../log-store.ts";
import type { MetricDatapoints } from "../metric-datapoints.ts";
import type { ObjectStore } from "../object-store.ts";
import type { EndpointConfigDoc, SageMakerStore } from "../sagemaker-store.ts";
import {
  type AsyncInvocationInput,
  DEFAULT_INVOCATION_TIMEOUT_SECONDS,
  DEFAULT_REQUEST_TTL_SECONDS,
  MAX_ASYNC_INPUT_BYTES,
} from "../services/sagemaker-runtime-rules.ts";
import { AwsError } from "../wire/aws-error.ts";
import type { AsyncRequest, AsyncRequestStore } from "./async-request-store.ts";
import { parseS3Location, s3UriUnder } from "./s3-location.ts";

/**
 * MaxConcurrentInvocationsPerInstance when the configuration names none ("SageMaker chooses an optimal value"):
 * locally one at a time, the one value that never overruns a container.
 */
const DEFAULT_CONCURRENCY_PER_INSTANCE = 1;
/** How often the queue looks for work it was not told about (instances that became healthy, scaled variants). */
const TICK_MS = 1000;
/** How long a shutdown waits for requests in progress before it ends them as interrupted. */
const DRAIN_MS = 10_000;
const NAMESPACE = "AWS/SageMaker";

const INTERRUPTED =
  "The local control plane stopped while this request was being processed; it is not run a second time.";

export interface AsyncInferenceDeps {
  sageMaker: SageMakerStore;
  runner: EndpointRunner;
  objects: ObjectStore;
  requests: AsyncRequestStore;
  iam: RequestAuthorizer;
  logs: LogStore;
  metrics: MetricDatapoints;
  /** Where an answered request is recorded when the endpoint configuration has a DataCaptureConfig. */
  capture: DataCapture;
  region: string;
}

/**
 * SageMaker Asynchronous Inference on the local endpoints: InvokeEndpointAsync queues a request in SQLite and
 * answers at once; the queue runs each request once, oldest first, on the endpoint's healthy adapter processes, at
 * most MaxConcurrentInvocationsPerInstance per instance, reading the input and writing the answer to S3 as the
 * model's execution role would (its IAM policy, not the caller's). A failed request never holds up the others and
 * is not retried: AWS documents no retry of a failed asynchronous invocation, only the failure output.
 */
export class AsyncInference {
  private readonly working = new Set<Promise<void>>();
  private readonly shutdown = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly deps: AsyncInferenceDeps) {}

  /** Ends as failed what a stopped control plane left running (each request runs once), then works the queue. */
  start() {
    for (const endpoint of this.deps.requests.endpointsWithBacklog()) {
      for (const request of this.deps.requests.withStatus(endpoint, "running")) {
        void this.fail(request, INTERRUPTED);
      }
    }
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  /** InvokeEndpointAsync once the input is valid: queued, with the locations its outcome will have. */
  submit(input: AsyncInvocationInput, inlineBody: Buffer | null) {
    const endpoint = input.EndpointName;
    const config = this.configOf(endpoint);
    const output = config?.AsyncInferenceConfig?.OutputConfig;
    const inferenceId = input.InferenceId ?? crypto.randomUUID();
    const outputLocation = output?.S3OutputPath ? s3UriUnder(output.S3OutputPath, `${inferenceId}.out`) : null;
    const failureLocation = output?.S3FailurePath ? s3UriUnder(output.S3FailurePath, `${inferenceId}-error.out`) : null;
    this.deps.requests.insert({
      inferenceId,
      endpoint,
      inputLocation: input.InputLocation ?? null,
      inlineBody,
      contentType: input.ContentType ?? null,
      accept: input.Accept ?? null,
      customAttributes: input.CustomAttributes ?? null,
      outputLocation,
      failureLocation,
      ttlSeconds: input.RequestTTLSeconds ?? DEFAULT_REQUEST_TTL_SECONDS,
      timeoutSeconds: input.InvocationTimeoutSeconds ?? DEFAULT_INVOCATION_TIMEOUT_SECONDS,
      receivedAt: Date.now(),
    });
    queueMicrotask(() => this.dispatch(endpoint));
    return { inferenceId, outputLocation, failureLocation };
  }

  private configOf(endpoint: string): EndpointConfigDoc | undefined {
    const record = this.deps.sageMaker.endpoint(endpoint);
    return record ? this.deps.sageMaker.endpointConfig(record.configName) : undefined;
  }

  private tick() {
    for (const endpoint of this.deps.requests.endpointsWithBacklog()) this.dispatch(endpoint);
  }

  /** Starts as many queued requests as the endpoint's healthy instances have free slots for. */
  private dispatch(endpoint: string) {
    if (this.closed) return;
    const { requests, sageMaker, runner } = this.deps;
    const record = sageMaker.endpoint(endpoint);
    if (!record || record.status === "Deleting") {
      for (const request of requests.withStatus(endpoint, "queued")) {
        void this.fail(request, `The endpoint ${endpoint} was deleted before this request was processed.`);
      }
      return;
    }
    if (record.status !== "InService" && record.status !== "Updating") return;
    const config = sageMaker.endpointConfig(record.configName);
    const perInstance =
      config?.AsyncInferenceConfig?.ClientConfig?.MaxConcurrentInvocationsPerInstance ??
      DEFAULT_CONCURRENCY_PER_INSTANCE;
    const instances = runner.healthyInstances(record.name);
    const busy = (instance: InstanceAddress) => runner.inFlight(record.name, instance.instanceId);
    const free = instances.reduce((sum, i) => sum + Math.max(0, perInstance - busy(i)), 0);
    if (free === 0) return;
    for (const request of requests.withStatus(endpoint, "queued", free)) {
      if (Date.now() - request.receivedAt > request.ttlSeconds * 1000) {
        void this.expire(request);
        continue;
      }
      const instance = instances.filter((i) => busy(i) < perInstance).sort((a, b) => busy(a) - busy(b))[0];
      if (!instance) return;
      const release = runner.hold(record.name, instance.instanceId);
      if (!release) return;
      if (!requests.claim(request.id, instance.variant, instance.instanceId)) {
        release();
        continue;
      }
      const work = this.process(request, instance)
        .catch((error) => {
          console.error(
            JSON.stringify({
              level: "error",
              msg: "local async inference",
              inferenceId: request.inferenceId,
              error: String(error),
            }),
          );
        })
        .finally(() => {
          release();
          this.working.delete(work);
          this.dispatch(endpoint);
        });
      this.working.add(work);
    }
  }

  /** The execution role of the variant's model (of the first variant where the request never reached one). */
  private executionRoleOf(endpoint: string, variant: string | null): LocalPrincipal {
    const { sageMaker } = this.deps;
    return { kind: "execution-role", roleArn: sageMaker.executionRoleArnOf(sageMaker.endpoint(endpoint), variant) };
  }

  private async process(request: AsyncRequest, instance: InstanceAddress): Promise<void> {
    const started = Date.now();
    const role = this.executionRoleOf(request.endpoint, instance.variant);
    this.dataLog(request, instance, `Inference request started. InferenceId: ${request.inferenceId}`);
    let body: Buffer | Readable;
    let size: number;
    try {
      ({ body, size } = this.readInput(request, role));
    } catch (error) {
      this.publish(request, instance, { RequestDownloadFailures: 1 });
      return this.fail(request, `Could not download the request payload: ${(error as Error).message}`, null, instance);
    }
    const headers: Record<string, string> = {
      "content-type": request.contentType ?? "application/octet-stream",
      "content-length": String(size),
    };
    if (request.accept) headers.accept = request.accept;
    if (request.customAttributes) headers["x-amzn-sagemaker-custom-attributes"] = request.customAttributes;
    const signal = AbortSignal.any([AbortSignal.timeout(request.timeoutSeconds * 1000), this.shutdown.signal]);
    const sent = performance.now();
    let container: Response;
    let answer: Buffer;
    try {
      container = await fetch(`${instance.url}/invocations`, {
        method: "POST",
        headers,
        body: Buffer.isBuffer(body) ? new Uint8Array(body) : (Readable.toWeb(body) as ReadableStream),
        signal,
        duplex: "half",
      } as RequestInit);
      answer = Buffer.from(await container.arrayBuffer());
    } catch (error) {
      const reason = this.shutdown.signal.aborted
        ? INTERRUPTED
        : (error as Error).name === "TimeoutError"
          ? `The model did not answer within InvocationTimeoutSeconds (${request.timeoutSeconds} s).`
          : `The container could not be reached (${(error as Error).message}).`;
      return this.fail(request, reason, null, instance);
    }
    const modelLatencyUs = Math.round((performance.now() - sent) * 1000);
    const contentType = container.headers.get("content-type") ?? "application/octet-stream";
    const timeInBacklog = started - request.receivedAt;
    this.publish(request, instance, {
      ModelLatency: modelLatencyUs,
      Invocation4XXErrors: container.status >= 400 && container.status < 500 ? 1 : 0,
      Invocation5XXErrors: container.status >= 500 ? 1 : 0,
      TimeInBacklog: timeInBacklog,
    });
    if (container.status < 200 || container.status > 299) {
      const reason = `Received ${container.status >= 500 ? "server" : "client"} error (${container.status}) from primary with message "${answer.toString("utf8").slice(0, 1024)}".`;
      return this.fail(request, reason, { answer, contentType }, instance);
    }
    if (!request.outputLocation) {
      return this.fail(
        request,
        "The endpoint configuration has no S3OutputPath to upload the response to.",
        null,
        instance,
      );
    }
    try {
      await this.write(request.outputLocation, answer, contentType, role);
    } catch (error) {
      this.publish(request, instance, { ResponseUploadFailures: 1 });
      return this.fail(request, `Could not upload the response: ${(error as Error).message}`, null, instance);
    }
    this.deps.requests.finish(request.id, "completed", null);
    this.captureAnswered(request, instance, { body: answer, contentType });
    this.publish(request, instance, { InvocationsProcesssed: 1, TotalProcessingTime: Date.now() - request.receivedAt });
    this.dataLog(
      request,
      instance,
      `Inference request succeeded. InferenceId: ${request.inferenceId}, ModelLatency: ${modelLatencyUs} us, TimeInBacklog: ${timeInBacklog} ms, TotalProcessingTime: ${Date.now() - request.receivedAt} ms`,
    );
  }

  /**
   * An answered request, for the endpoint configuration's DataCaptureConfig, as a real-time invocation is recorded:
   * the input as the container received it (read again from S3 unless it came inline), the answer, the InferenceId.
   */
  private captureAnswered(
    request: AsyncRequest,
    instance: InstanceAddress,
    output: { body: Buffer; contentType: string },
  ) {
    const config = this.configOf(request.endpoint)?.DataCaptureConfig;
    if (!config) return;
    const { sageMaker } = this.deps;
    let input: { body: Buffer; contentType: string } | undefined;
    if (capturesInput(config)) {
      const body = this.capturedInput(request);
      if (body) input = { body, contentType: request.contentType ?? "application/octet-stream" };
      else {
        this.deps.logs.append(
          endpointLogGroup(request.endpoint),
          "data-capture",
          `The input of ${request.inferenceId} is over ${MAX_CAPTURED_INPUT_BYTES} bytes; its record has the output only.`,
        );
      }
    }
    this.deps.capture.record({
      endpoint: request.endpoint,
      variant: instance.variant,
      config,
      executionRoleArn: sageMaker.executionRoleArnOf(sageMaker.endpoint(request.endpoint), instance.variant),
      input,
      output,
      inferenceId: request.inferenceId,
    });
  }

  /** The request's input for its capture record (read already once as the execution role), or null when too large. */
  private capturedInput(request: AsyncRequest): Buffer | null {
    if (request.inlineBody) return request.inlineBody.length <= MAX_CAPTURED_INPUT_BYTES ? request.inlineBody : null;
    const location = parseS3Location(request.inputLocation ?? "");
    if (!location) return null;
    const object = this.deps.objects.getObject(location.bucket, location.key);
    return object.size <= MAX_CAPTURED_INPUT_BYTES ? fs.readFileSync(object.file) : null;
  }

  /** The payload, inline or from S3 as the execution role reads it (s3:GetObject), at most 1 GB. */
  private readInput(request: AsyncRequest, role: LocalPrincipal): { body: Buffer | Readable; size: number } {
    if (request.inlineBody) return { body: request.inlineBody, size: request.inlineBody.length };
    const location = parseS3Location(request.inputLocation ?? "");
    if (!location) throw new Error(`${request.inputLocation} is not an S3 object location.`);
    this.deps.iam.s3(role, this.deps.region, { method: "GET", ...location, query: new URLSearchParams() });
    const object = this.deps.objects.getObject(location.bucket, location.key);
    if (object.size > MAX_ASYNC_INPUT_BYTES) {
      throw new Error(`the object is ${object.size} bytes; Asynchronous Inference takes payloads up to 1 GB.`);
    }
    return { body: fs.createReadStream(object.file), size: object.size };
  }

  private async write(uri: string, bytes: Buffer, contentType: string, role: LocalPrincipal) {
    const location = parseS3Location(uri);
    if (!location) throw new Error(`${uri} is not an S3 object location.`);
    this.deps.iam.s3(role, this.deps.region, { method: "PUT", ...location, query: new URLSearchParams() });
    await this.deps.objects.putObject(location.bucket, location.key, bytes, { contentType });
  }

  /**
   * Ends the request as failed: the container's answer (or the reason) goes to the failure location as the model's
   * execution role writes it, and the failure is counted and logged.
   */
  private async fail(
    request: AsyncRequest,
    reason: string,
    answer: { answer: Buffer; contentType: string } | null = null,
    instance?: InstanceAddress,
  ) {
    const role = this.executionRoleOf(request.endpoint, instance?.variant ?? request.variant);
    await this.writeFailure(request, answer?.answer ?? Buffer.from(reason), answer?.contentType ?? "text/plain", role);
    if (!this.deps.requests.finish(request.id, "failed", reason)) return;
    if (instance) {
      this.publish(request, instance, { InvocationFailures: 1, TotalProcessingTime: Date.now() - request.receivedAt });
      this.dataLog(
        request,
        instance,
        `Inference request failed. InferenceId: ${request.inferenceId}, Reason: ${reason}`,
      );
    }
  }

  /** The failure output is written before the request is marked ended, so a failed request's object is there. */
  private async writeFailure(request: AsyncRequest, bytes: Buffer, contentType: string, role: LocalPrincipal) {
    if (!request.failureLocation) return;
    await this.write(request.failureLocation, bytes, contentType, role).catch((error) =>
      this.deps.logs.append(
        endpointLogGroup(request.endpoint),
        "local-control-plane",
        `Could not upload the failure of ${request.inferenceId} to ${request.failureLocation}: ${(error as Error).message}`,
      ),
    );
  }

  private async expire(request: AsyncRequest) {
    const reason = `Request expired: it waited in the queue longer than RequestTTLSeconds (${request.ttlSeconds} s).`;
    await this.writeFailure(request, Buffer.from(reason), "text/plain", this.executionRoleOf(request.endpoint, null));
    if (!this.deps.requests.finish(request.id, "expired", reason)) return;
    const variant = this.deps.sageMaker.endpoint(request.endpoint)?.variants[0]?.VariantName;
    if (variant) this.put(request.endpoint, variant, "ExpiredRequests", 1, "Count");
  }

  /** Only metrics AWS lists for asynchronous endpoints (sagemaker-endpoint-metrics.ts). */
  private publish(
    request: AsyncRequest,
    instance: InstanceAddress,
    values: Partial<Record<AsyncEndpointMetric, number>>,
  ) {
    const units: Partial<Record<AsyncEndpointMetric, string>> = {
      ModelLatency: "Microseconds",
      TimeInBacklog: "Milliseconds",
      TotalProcessingTime: "Milliseconds",
    };
    for (const [name, value] of Object.entries(values) as [AsyncEndpointMetric, number][]) {
      this.put(request.endpoint, instance.variant, name, value, units[name] ?? "Count");
    }
  }

  private put(endpoint: string, variant: string, name: AsyncEndpointMetric, value: number, unit: string) {
    this.deps.metrics.put(NAMESPACE, name, { EndpointName: endpoint, VariantName: variant }, value, unit);
  }

  /** The platform's per-request log: `/aws/sagemaker/Endpoints/<endpoint>`, stream `<variant>/<instance>/data-log`. */
  private dataLog(request: AsyncRequest, instance: InstanceAddress, line: string) {
    this.deps.logs.append(endpointLogGroup(request.endpoint), `${instance.logStream}/data-log`, line);
  }

  /** Stops taking requests, lets those in progress finish for a while, then ends the rest as interrupted. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    let timer: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      Promise.all([...this.working]).then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), DRAIN_MS);
      }),
    ]);
    clearTimeout(timer);
    if (!drained) this.shutdown.abort(new AwsError("ServiceUnavailable", "The local control plane is stopping.", 503));
    await Promise.all([...this.working]);
  }
}
