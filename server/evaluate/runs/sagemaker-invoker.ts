import type { S3Client } from "@aws-sdk/client-s3";
import type { SageMakerClient } from "@aws-sdk/client-sagemaker";
import type { SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import { evaluationInferenceId } from "../../../contract/evaluate/evaluation-traffic.ts";
import { realSleep } from "../../aws/sleep.ts";
import { AppError } from "../../http/app-error.ts";
import { asyncOutcome } from "../../invoke/async-outcome.ts";
import {
  type EvaluationItemKey,
  forgetAsyncRequest,
  noteAsyncState,
  sendAsyncRequest,
  submittedForItem,
} from "../../invoke/async-requests.ts";
import { defaultBusyRetryPolicy } from "../../invoke/busy-retry.ts";
import { ContainerError } from "../../invoke/container-error.ts";
import { invokeEndpoint } from "../../invoke/invoke.ts";
import { asyncOutputPathsOf } from "../../invoke/invoke-async.ts";
import type { Store } from "../../store/store.ts";
import type { EndpointInvoker } from "./invoker.ts";

/** One attempt per call: the runner retries busy answers itself, so it can count the attempts per item. */
const singleAttempt = { ...defaultBusyRetryPolicy, maxRetries: 0 };
/** How long an endpoint is known to be real-time or asynchronous before it is described again. */
const KIND_TTL_MS = 60_000;

export interface InvokerOptions {
  /** Where asynchronous requests are written (CONSOLE_ARTIFACT_BUCKET). */
  artifactBucket: string | null;
  /** The console's store, where every asynchronous request is recorded. */
  store: () => Store;
  /** How often an asynchronous request's outcome is looked at. */
  pollMs?: number;
}

/**
 * The console's invocation as the runner's narrow invoker. Real-time endpoints: InvokeEndpoint, a container error
 * coming back with the container's own status and body (a 503 busy stays a 503 `{"error", "retryable": true}`,
 * which the runner retries with backoff), any other AWS error with the status the console maps it to. Asynchronous endpoints: the request goes
 * to S3 and InvokeEndpointAsync, and the call waits for the outcome there (the runner's concurrency bounds the
 * requests in flight); a failure comes back as a 500 with what SageMaker wrote to the failure location. An item
 * whose request was already sent (before a restart) is collected from that request's locations, never sent again.
 */
export function sageMakerInvoker(
  clients: { runtime: SageMakerRuntimeClient; s3: S3Client; sageMaker: SageMakerClient },
  options: InvokerOptions,
): EndpointInvoker {
  const kinds = new Map<string, { at: number; paths: Awaited<ReturnType<typeof asyncOutputPathsOf>> }>();
  const asyncPaths = async (name: string) => {
    const known = kinds.get(name);
    if (known && Date.now() - known.at < KIND_TTL_MS) return known.paths;
    const paths = await asyncOutputPathsOf(clients.sageMaker, name);
    kinds.set(name, { at: Date.now(), paths });
    return paths;
  };
  type Paths = NonNullable<Awaited<ReturnType<typeof asyncOutputPathsOf>>>;
  const send = (store: Store, endpointName: string, paths: Paths, body: unknown, item: EvaluationItemKey) => {
    if (!options.artifactBucket) {
      throw new AppError("unavailable", "Asynchronous requests need the artifact bucket (CONSOLE_ARTIFACT_BUCKET).");
    }
    return sendAsyncRequest(clients, store, {
      bucket: options.artifactBucket,
      endpointName,
      paths,
      body,
      sender: { kind: "evaluation", ...item },
    });
  };
  /** A request written down but never heard accepted counts as sent only when S3 shows it ran; else it is forgotten. */
  const collectable = async (store: Store, submitted: Awaited<ReturnType<typeof submittedForItem>>) => {
    if (!submitted || submitted.accepted) return submitted;
    if ((await asyncOutcome(clients.s3, submitted)).status !== "pending") return submitted;
    await forgetAsyncRequest(store, submitted.inferenceId);
    return null;
  };
  return async (endpointName, body, { item, signal }) => {
    const started = performance.now();
    const startedAt = Date.now();
    try {
      const paths = await asyncPaths(endpointName);
      if (!paths) {
        const tag = evaluationInferenceId(item);
        const result = await invokeEndpoint(clients.runtime, endpointName, body, singleAttempt, undefined, tag);
        return { status: 200, body: result.body, latencyMs: result.latencyMs };
      }
      const store = options.store();
      const submitted = await collectable(store, await submittedForItem(store, item, endpointName));
      const queued = submitted ?? (await send(store, endpointName, paths, body, item));
      // A request sent before a restart has been on its way since it was submitted, not since now.
      const since = submitted ? Date.parse(submitted.submittedAt) : startedAt;
      for (;;) {
        const outcome = await asyncOutcome(clients.s3, queued);
        if (outcome.status !== "pending") await noteAsyncState(store, queued.inferenceId, outcome.status);
        const latencyMs = Date.now() - since;
        if (outcome.status === "completed") return { status: 200, body: outcome.body, latencyMs };
        if (outcome.status === "failed")
          return { status: 500, body: { error: JSON.stringify(outcome.body) }, latencyMs };
        await realSleep(options.pollMs ?? 500, signal);
      }
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const latencyMs = performance.now() - started;
      const containerBody = error instanceof ContainerError ? error.details?.containerBody : undefined;
      if (containerBody !== undefined) return { status: error.status, body: containerBody, latencyMs };
      return { status: error.status, body: { error: error.message }, latencyMs };
    }
  };
}
