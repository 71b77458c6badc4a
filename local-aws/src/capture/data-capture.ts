import { randomInt, randomUUID } from "node:crypto";
import type { DataCaptureConfig } from "@aws-sdk/client-sagemaker";
import { parseS3Location } from "../async/s3-location.ts";
import { endpointLogGroup } from "../endpoints/endpoint-runner.ts";
import type { RequestAuthorizer } from "../iam/request-authorizer.ts";
import type { LogStore } from "../log-store.ts";
import type { ObjectStore } from "../object-store.ts";
import type { SageMakerStore } from "../sagemaker-store.ts";

/**
 * Endpoint data capture as the SageMaker Developer Guide's "Capture data from real-time endpoint" describes it,
 * for real-time and asynchronous endpoints alike (an asynchronous invocation is recorded once its answer is in S3): each sampled invocation is one JSON Lines record (`captureData.endpointInput` / `endpointOutput`
 * with `observedContentType`, `mode`, `data` and `encoding`; `eventMetadata` with `eventId`, `inferenceTime` and
 * the caller's `inferenceId`; `eventVersion` "0"), in objects under
 * `<DestinationS3Uri>/<endpoint>/<variant>/yyyy/mm/dd/hh/`, written by the model's execution role. A content type
 * listed in CaptureContentTypeHeader's JsonContentTypes is kept as text (`JSON`), one in CsvContentTypes as `CSV`;
 * anything else is base64 (`BASE64`), as with no CaptureContentTypeHeader at all. Records are buffered and written
 * in the background, never while the caller waits.
 */
export interface CapturedInvocation {
  endpoint: string;
  variant: string;
  config: DataCaptureConfig;
  executionRoleArn: string;
  /** Absent when the payload could not be kept (an asynchronous input over MAX_CAPTURED_INPUT_BYTES). */
  input?: { body: Buffer; contentType: string };
  output: { body: Buffer; contentType: string };
  inferenceId?: string;
  at?: Date;
}

interface Pending {
  bucket: string;
  key: string;
  endpoint: string;
  executionRoleArn: string;
  lines: string[];
}

type Mode = "Input" | "Output";

function captures(config: DataCaptureConfig, mode: Mode): boolean {
  return (config.CaptureOptions ?? []).some(
    (option) => option.CaptureMode === mode || option.CaptureMode === "InputAndOutput",
  );
}

/** How a payload of `contentType` is kept: its media type (parameters aside) against the configured lists. */
export function captureEncoding(config: DataCaptureConfig, contentType: string): "JSON" | "CSV" | "BASE64" {
  const media = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  const header = config.CaptureContentTypeHeader;
  if (header?.JsonContentTypes?.some((type) => type.toLowerCase() === media)) return "JSON";
  if (header?.CsvContentTypes?.some((type) => type.toLowerCase() === media)) return "CSV";
  return "BASE64";
}

function captured(config: DataCaptureConfig, mode: Mode, payload: { body: Buffer; contentType: string }) {
  const encoding = captureEncoding(config, payload.contentType);
  return {
    observedContentType: payload.contentType,
    mode: mode === "Input" ? "INPUT" : "OUTPUT",
    data: encoding === "BASE64" ? payload.body.toString("base64") : payload.body.toString("utf8"),
    encoding,
  };
}

const two = (n: number) => String(n).padStart(2, "0");

/** `<prefix>/<endpoint>/<variant>/yyyy/mm/dd/hh/` of a record made at `at` (UTC). */
export function captureFolder(destination: string, endpoint: string, variant: string, at: Date): string {
  const base = destination.endsWith("/") ? destination : `${destination}/`;
  const hour = `${at.getUTCFullYear()}/${two(at.getUTCMonth() + 1)}/${two(at.getUTCDate())}/${two(at.getUTCHours())}`;
  return `${base}${endpoint}/${variant}/${hour}/`;
}

/**
 * The largest input a record carries: InvokeEndpoint's payload limit (6 MB, the Runtime API reference). An
 * asynchronous input may be up to 1 GB; a larger one is recorded without its input, and the endpoint's log says so.
 */
export const MAX_CAPTURED_INPUT_BYTES = 6 * 1024 * 1024;

/** Whether the configuration keeps inputs (CaptureMode Input or InputAndOutput). */
export function capturesInput(config: DataCaptureConfig): boolean {
  return captures(config, "Input");
}

export interface DataCaptureDeps {
  sageMaker: SageMakerStore;
  objects: ObjectStore;
  iam: RequestAuthorizer;
  logs: LogStore;
  region: string;
  /** How often buffered records are written (1 s unless told). */
  flushIntervalMs?: number;
}

export class DataCapture {
  private readonly pending = new Map<string, Pending>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly deps: DataCaptureDeps) {
    this.timer = setInterval(() => void this.flush(), deps.flushIntervalMs ?? 1000);
    this.timer.unref();
  }

  /** Whether this invocation is sampled: InitialSamplingPercentage out of 100, drawn per invocation. */
  private sampled(config: DataCaptureConfig): boolean {
    if (config.EnableCapture === false) return false;
    const percent = config.InitialSamplingPercentage ?? 0;
    return percent >= 100 || randomInt(10_000) < percent * 100;
  }

  record(invocation: CapturedInvocation): void {
    const { config } = invocation;
    if (!config.DestinationS3Uri || !this.sampled(config)) return;
    const at = invocation.at ?? new Date();
    const captureData: Record<string, unknown> = {};
    if (captures(config, "Input") && invocation.input) {
      captureData.endpointInput = captured(config, "Input", invocation.input);
    }
    if (captures(config, "Output")) captureData.endpointOutput = captured(config, "Output", invocation.output);
    const line = JSON.stringify({
      captureData,
      eventMetadata: {
        eventId: randomUUID(),
        ...(invocation.inferenceId ? { inferenceId: invocation.inferenceId } : {}),
        inferenceTime: at.toISOString(),
      },
      eventVersion: "0",
    });
    const folder = captureFolder(config.DestinationS3Uri, invocation.endpoint, invocation.variant, at);
    // Parsed as the location of an object in the folder (a bare folder has no key to parse), then cut back to it.
    const location = parseS3Location(`${folder}x`);
    if (!location) return;
    const prefix = location.key.slice(0, -1);
    const slot = `${location.bucket}/${prefix}|${invocation.executionRoleArn}`;
    const open = this.pending.get(slot);
    if (open) open.lines.push(line);
    else {
      const name = `${two(at.getUTCMinutes())}-${two(at.getUTCSeconds())}-${String(at.getUTCMilliseconds()).padStart(3, "0")}-${randomUUID()}.jsonl`;
      this.pending.set(slot, {
        bucket: location.bucket,
        key: `${prefix}${name}`,
        endpoint: invocation.endpoint,
        executionRoleArn: invocation.executionRoleArn,
        lines: [line],
      });
    }
  }

  /** Writes every buffered object, each as the execution role of the model that answered (s3:PutObject). */
  flush(): Promise<void> {
    const batch = [...this.pending.values()];
    this.pending.clear();
    this.flushing = this.flushing.then(() =>
      Promise.all(batch.map((object) => this.write(object))).then(() => undefined),
    );
    return this.flushing;
  }

  private async write(object: Pending) {
    const role = { kind: "execution-role" as const, roleArn: object.executionRoleArn };
    try {
      this.deps.iam.s3(role, this.deps.region, {
        method: "PUT",
        bucket: object.bucket,
        key: object.key,
        query: new URLSearchParams(),
      });
      await this.deps.objects.putObject(object.bucket, object.key, Buffer.from(`${object.lines.join("\n")}\n`), {
        contentType: "application/jsonlines",
      });
    } catch (error) {
      this.deps.logs.append(
        endpointLogGroup(object.endpoint),
        "data-capture",
        `Could not write ${object.lines.length} captured record(s) to s3://${object.bucket}/${object.key}: ${(error as Error).message}`,
      );
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
