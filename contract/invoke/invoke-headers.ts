/**
 * `POST /api/endpoints/[name]/invoke` answers the container's bytes with its Content-Type, streaming or not; these
 * headers say what it took to get them, the same for both.
 */
export const invokeHeaderNames = {
  /** 503-busy answers retried before this one. */
  retries: "x-busy-retries",
  /** The production variant SageMaker sent the request to (its `X-Amzn-Invoked-Production-Variant`). */
  invokedVariant: "x-invoked-variant",
  /** `invoke;dur=<ms>`: until the whole answer (plain) or until the stream opened (streaming). */
  timing: "server-timing",
  /** The InferenceId the console gave InvokeEndpoint (plain calls): data capture records it, labels name it later. */
  inferenceId: "x-inference-id",
} as const;

/** What an invoke's headers carry besides the container's bytes. */
export interface InvokeMetadata {
  contentType: string | null;
  invokedVariant: string | null;
  retries: number;
  latencyMs: number;
}

export function invokeHeaders(metadata: InvokeMetadata): Headers {
  const headers = new Headers({
    "cache-control": "no-store",
    [invokeHeaderNames.retries]: String(metadata.retries),
    [invokeHeaderNames.timing]: `invoke;dur=${metadata.latencyMs}`,
  });
  if (metadata.contentType) headers.set("content-type", metadata.contentType);
  if (metadata.invokedVariant) headers.set(invokeHeaderNames.invokedVariant, metadata.invokedVariant);
  return headers;
}

export function invokeMetadataOf(headers: Headers): InvokeMetadata {
  const duration = /(?:^|[;,\s])dur=([\d.]+)/.exec(headers.get(invokeHeaderNames.timing) ?? "")?.[1];
  return {
    contentType: headers.get("content-type"),
    invokedVariant: headers.get(invokeHeaderNames.invokedVariant),
    retries: Number(headers.get(invokeHeaderNames.retries) ?? 0) || 0,
    latencyMs: duration === undefined ? 0 : Number(duration),
  };
}
