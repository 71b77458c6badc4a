import {
  InvokeEndpointCommand,
  InvokeEndpointWithResponseStreamCommand,
  type SageMakerRuntimeClient,
} from "@aws-sdk/client-sagemaker-runtime";
import type { InvokeMetadata } from "../../contract/invoke/invoke-headers.ts";
import { toAwsAppError } from "../aws/errors.ts";
import type { AppError } from "../http/app-error.ts";
import { type BusyRetryPolicy, defaultBusyRetryPolicy, retryWhileBusy } from "./busy-retry.ts";
import { ContainerError, isModelError, isRetryableBusy } from "./container-error.ts";

function toInvokeError(error: unknown, name: string, retries: number): AppError {
  if (isModelError(error)) return new ContainerError(error, retries);
  return toAwsAppError(error, `endpoint "${name}"`);
}

type Settled<T> = { ok: true; output: T } | { ok: false; error: unknown };

/** One SDK call as an outcome the busy-retry policy can look at, instead of a throw. */
function settle<T>(call: Promise<T>): Promise<Settled<T>> {
  return call.then(
    (output) => ({ ok: true, output }),
    (error: unknown) => ({ ok: false, error }),
  );
}

const busyFailure = (outcome: Settled<unknown>) => !outcome.ok && isRetryableBusy(outcome.error);

/** The container's bytes as JSON where they are JSON, else as text. */
export function decodeBody(bytes: Uint8Array | undefined, contentType: string | undefined): unknown {
  const text = new TextDecoder().decode(bytes ?? new Uint8Array());
  if (contentType?.includes("json") || /^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** The container's answer as it sent it, with what it took to get it. */
export interface InvokeAnswer extends InvokeMetadata {
  bytes: Uint8Array;
}

/** The container's answer decoded (`decodeBody`), for callers that read it rather than pass it on. */
export interface InvokeResult extends Omit<InvokeAnswer, "bytes"> {
  body: unknown;
}

/**
 * InvokeEndpoint with a JSON body; the container's 503 busy is retried with capped exponential backoff and jitter.
 * An `inferenceId` goes to SageMaker as InvokeEndpoint's `InferenceId`, which data capture records with the call.
 */
export async function invokeEndpointBytes(
  runtime: SageMakerRuntimeClient,
  name: string,
  body: unknown,
  policy: BusyRetryPolicy = defaultBusyRetryPolicy,
  now: () => number = performance.now.bind(performance),
  inferenceId?: string,
): Promise<InvokeAnswer> {
  const payload = JSON.stringify(body);
  const started = now();
  const { value, retries } = await retryWhileBusy(
    () =>
      settle(
        runtime.send(
          new InvokeEndpointCommand({
            EndpointName: name,
            Body: payload,
            ContentType: "application/json",
            Accept: "application/json",
            ...(inferenceId && { InferenceId: inferenceId }),
          }),
        ),
      ),
    busyFailure,
    policy,
  );
  if (!value.ok) throw toInvokeError(value.error, name, retries);
  const { output } = value;
  return {
    bytes: output.Body ?? new Uint8Array(),
    contentType: output.ContentType ?? null,
    invokedVariant: output.InvokedProductionVariant ?? null,
    retries,
    latencyMs: Math.round((now() - started) * 100) / 100,
  };
}

/** `invokeEndpointBytes` with the answer decoded. */
export async function invokeEndpoint(
  runtime: SageMakerRuntimeClient,
  name: string,
  body: unknown,
  policy: BusyRetryPolicy = defaultBusyRetryPolicy,
  now: () => number = performance.now.bind(performance),
  inferenceId?: string,
): Promise<InvokeResult> {
  const { bytes, ...metadata } = await invokeEndpointBytes(runtime, name, body, policy, now, inferenceId);
  return { ...metadata, body: decodeBody(bytes, metadata.contentType ?? undefined) };
}

export interface InvokeStream extends InvokeMetadata {
  /** The container's bytes as they arrive (for chat completions: SSE `data:` lines). */
  stream: ReadableStream<Uint8Array>;
}

/**
 * InvokeEndpointWithResponseStream. Busy answers are retried before the first byte; an error inside the stream
 * ends it with an SSE `event: error` line, since the status line has already been sent by then.
 */
export async function invokeEndpointStream(
  runtime: SageMakerRuntimeClient,
  name: string,
  body: unknown,
  policy: BusyRetryPolicy = defaultBusyRetryPolicy,
  now: () => number = performance.now.bind(performance),
): Promise<InvokeStream> {
  const payload = JSON.stringify(body);
  const started = now();
  const { value, retries } = await retryWhileBusy(
    () =>
      settle(
        runtime.send(
          new InvokeEndpointWithResponseStreamCommand({
            EndpointName: name,
            Body: payload,
            ContentType: "application/json",
          }),
        ),
      ),
    busyFailure,
    policy,
  );
  if (!value.ok) throw toInvokeError(value.error, name, retries);
  const opened = value.output;
  const events = opened.Body;
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        for await (const event of events ?? []) {
          if (event.PayloadPart?.Bytes) controller.enqueue(event.PayloadPart.Bytes);
          const failure = event.ModelStreamError ?? event.InternalStreamFailure;
          if (failure) throw failure;
        }
      } catch (error) {
        const message = (error as Error).message || "the response stream failed";
        controller.enqueue(encoder.encode(`event: error\ndata: ${JSON.stringify({ error: message })}\n\n`));
      }
      controller.close();
    },
  });
  return {
    stream,
    contentType: opened.ContentType ?? null,
    invokedVariant: opened.InvokedProductionVariant ?? null,
    retries,
    latencyMs: Math.round((now() - started) * 100) / 100,
  };
}
