import type { SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import { AppError } from "../../http/app-error.ts";
import { defaultBusyRetryPolicy } from "../../invoke/busy-retry.ts";
import { invokeEndpoint } from "../../invoke/invoke.ts";
import type { EndpointInvoker } from "./invoker.ts";

/** One attempt per call: the runner retries busy answers itself, so it can count the attempts per item. */
const singleAttempt = { ...defaultBusyRetryPolicy, maxRetries: 0 };

/**
 * The console's InvokeEndpoint as the runner's narrow invoker: a container error comes back with the container's
 * own status and message (a 503 busy stays a 503, which the runner retries with jitter), any other AWS error
 * with the status the console maps it to.
 */
export function sageMakerInvoker(runtime: SageMakerRuntimeClient): EndpointInvoker {
  return async (endpointName, body) => {
    const started = performance.now();
    try {
      const result = await invokeEndpoint(runtime, endpointName, body, singleAttempt);
      return { status: 200, body: result.body, latencyMs: result.latencyMs };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return { status: error.status, body: { error: error.message }, latencyMs: performance.now() - started };
    }
  };
}
