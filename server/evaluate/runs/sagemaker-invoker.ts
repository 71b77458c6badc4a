import { InvokeEndpointCommand, type SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import type { EndpointInvoker } from "./invoker.ts";

const throttled = new Set(["ThrottlingException", "ServiceUnavailable", "ServiceUnavailableException"]);

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * InvokeEndpoint as the runner's narrow invoker: the container's status and body come back as they are (a
 * ModelError carries the container's own status and message), throttling reads as 503 busy so it is retried,
 * and other service errors become their HTTP status with the service's message.
 */
export function sageMakerInvoker(runtime: SageMakerRuntimeClient): EndpointInvoker {
  return async (endpointName, body, signal) => {
    const started = performance.now();
    try {
      const response = await runtime.send(
        new InvokeEndpointCommand({
          EndpointName: endpointName,
          ContentType: "application/json",
          Accept: "application/json",
          Body: new TextEncoder().encode(JSON.stringify(body)),
        }),
        { abortSignal: signal },
      );
      const text = new TextDecoder().decode(response.Body);
      return { status: 200, body: parseBody(text), latencyMs: performance.now() - started };
    } catch (error) {
      if (signal?.aborted) throw error;
      const failure = error as {
        name?: string;
        message?: string;
        OriginalStatusCode?: number;
        OriginalMessage?: string;
        $metadata?: { httpStatusCode?: number };
      };
      const latencyMs = performance.now() - started;
      if (failure.name === "ModelError" && failure.OriginalStatusCode) {
        return { status: failure.OriginalStatusCode, body: parseBody(failure.OriginalMessage ?? ""), latencyMs };
      }
      if (failure.name && throttled.has(failure.name))
        return { status: 503, body: { error: failure.message }, latencyMs };
      const status = failure.$metadata?.httpStatusCode;
      if (status) return { status, body: { error: failure.message ?? failure.name }, latencyMs };
      throw error;
    }
  };
}
