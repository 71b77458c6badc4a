import {
  InvokeEndpointCommand,
  InvokeEndpointWithResponseStreamCommand,
  type InvokeEndpointWithResponseStreamCommandOutput,
  type SageMakerRuntimeClient,
} from "@aws-sdk/client-sagemaker-runtime";
import type { InvokeResult } from "../../contract/invoke/invoke.ts";
import { toAwsAppError } from "../aws/errors.ts";
import type { AppError } from "../http/app-error.ts";
import { type BusyRetryPolicy, defaultBusyRetryPolicy, withBusyRetry } from "./backoff.ts";
import { ContainerError, isModelError, isRetryableBusy } from "./container-error.ts";

function toInvokeError(error: unknown, name: string): AppError {
  const retries = (error as { busyRetries?: number }).busyRetries ?? 0;
  if (isModelError(error)) return new ContainerError(error, retries);
  return toAwsAppError(error, `endpoint "${name}"`);
}

function decodeBody(bytes: Uint8Array | undefined, contentType: string | undefined): unknown {
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

/** InvokeEndpoint with a JSON body; the container's 503 busy is retried with capped exponential backoff and jitter. */
export async function invokeEndpoint(
  runtime: SageMakerRuntimeClient,
  name: string,
  body: unknown,
  policy: BusyRetryPolicy = defaultBusyRetryPolicy,
  now: () => number = performance.now.bind(performance),
): Promise<InvokeResult> {
  const payload = JSON.stringify(body);
  const started = now();
  try {
    const { value, retries } = await withBusyRetry(
      () =>
        runtime.send(
          new InvokeEndpointCommand({
            EndpointName: name,
            Body: payload,
            ContentType: "application/json",
            Accept: "application/json",
          }),
        ),
      isRetryableBusy,
      policy,
    );
    return {
      body: decodeBody(value.Body, value.ContentType),
      contentType: value.ContentType ?? null,
      invokedVariant: value.InvokedProductionVariant ?? null,
      retries,
      latencyMs: Math.round((now() - started) * 100) / 100,
    };
  } catch (error) {
    throw toInvokeError(error, name);
  }
}

export interface InvokeStream {
  /** The container's bytes as they arrive (for chat completions: SSE `data:` lines). */
  stream: ReadableStream<Uint8Array>;
  contentType: string | null;
  retries: number;
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
): Promise<InvokeStream> {
  const payload = JSON.stringify(body);
  let opened: InvokeEndpointWithResponseStreamCommandOutput;
  let retries: number;
  try {
    ({ value: opened, retries } = await withBusyRetry(
      () =>
        runtime.send(
          new InvokeEndpointWithResponseStreamCommand({
            EndpointName: name,
            Body: payload,
            ContentType: "application/json",
          }),
        ),
      isRetryableBusy,
      policy,
    ));
  } catch (error) {
    throw toInvokeError(error, name);
  }
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
  return { stream, contentType: opened.ContentType ?? null, retries };
}
