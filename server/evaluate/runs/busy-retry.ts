import type { EndpointInvoker, InvokeOutcome } from "./invoker.ts";

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 100, maxDelayMs: 5_000 };

/** "Full jitter" backoff: a uniform wait up to base * 2^attempt, capped, so busy clients spread out. */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  return random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Invokes, retrying 503 "busy" answers with jittered backoff; the last answer is returned with the attempt count. */
export async function invokeRetryingBusy(
  invoke: EndpointInvoker,
  endpointName: string,
  body: unknown,
  policy: RetryPolicy = DEFAULT_RETRY,
  signal?: AbortSignal,
): Promise<InvokeOutcome & { attempts: number }> {
  for (let attempt = 1; ; attempt++) {
    const outcome = await invoke(endpointName, body, signal);
    if (outcome.status !== 503 || attempt >= policy.maxAttempts) return { ...outcome, attempts: attempt };
    await sleep(backoffDelay(policy, attempt - 1), signal);
  }
}
