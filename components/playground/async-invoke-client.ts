import type { AsyncOutcome } from "@/contract/invoke/invoke-async.ts";
import { api } from "../api/console-client.ts";
import type { InvokeAnswer } from "./invoke-client.ts";

/** Where an asynchronous request stands, as the playground shows it while it waits. */
export type AsyncProgress = { inferenceId: string; inputLocation: string; waitedMs: number };

/** A request SageMaker ended as failed: what it wrote to the failure location. */
export class AsyncInvocationFailed extends Error {
  constructor(
    readonly outcome: AsyncOutcome,
    readonly inferenceId: string,
  ) {
    const body = typeof outcome.body === "string" ? outcome.body : JSON.stringify(outcome.body);
    super(`The asynchronous request ${inferenceId} failed (${outcome.failureLocation}): ${body}`);
  }
}

/**
 * Sends a request to an asynchronous endpoint and polls its outcome until SageMaker has written the answer or the
 * failure (`onProgress` on every look while it is queued or running); answers as a real-time invoke would.
 */
export async function invokeAsyncAndWait(
  endpoint: string,
  body: Record<string, unknown>,
  onProgress: (progress: AsyncProgress) => void,
  options: { pollMs?: number; signal?: AbortSignal; now?: () => number } = {},
): Promise<InvokeAnswer> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const queued = await api("invokeAsync", { params: { name: endpoint }, body: { body }, signal: options.signal });
  const params = { name: endpoint, inferenceId: queued.inferenceId };
  for (;;) {
    onProgress({ inferenceId: queued.inferenceId, inputLocation: queued.inputLocation, waitedMs: now() - started });
    const outcome = await api("asyncOutcome", { params, signal: options.signal });
    if (outcome.status === "failed") throw new AsyncInvocationFailed(outcome, queued.inferenceId);
    if (outcome.status === "completed") {
      return {
        body: outcome.body,
        contentType: "application/json",
        invokedVariant: null,
        retries: 0,
        latencyMs: Math.round((now() - started) * 100) / 100,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 1000));
  }
}
