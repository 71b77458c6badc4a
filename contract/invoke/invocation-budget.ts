/**
 * How long one synchronous invocation through the console may take, from the figures the console invokes with:
 * SageMaker's limit for one real-time invocation and the busy-retry policy (server/invoke/busy-retry.ts). The hosting
 * stack keeps a connection through its load balancer open at least this long (infra/cdk/hosting/load-balancer.ts).
 */

/**
 * SageMaker's limit for one real-time invocation, in seconds. The InvokeEndpoint API reference: "A customer's model
 * containers must respond to requests within 60 seconds."
 */
export const REALTIME_INVOCATION_SECONDS = 60;

/** The busy-retry policy's figures: retries after the first attempt, and the backoff's base and cap. */
export const BUSY_RETRY = { maxRetries: 6, baseDelayMs: 100, maxDelayMs: 2000 } as const;

/** The backoff before retry `retry` (0 for the first) is uniform below this: min(cap, base * 2^retry). */
export function backoffCeilingMs(
  retry: number,
  policy: { baseDelayMs: number; maxDelayMs: number } = BUSY_RETRY,
): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
}

/** Every backoff of the busy-retry policy at its ceiling, in milliseconds. */
export const LONGEST_BUSY_WAIT_MS = Array.from({ length: BUSY_RETRY.maxRetries }, (_, retry) =>
  backoffCeilingMs(retry),
).reduce((total, wait) => total + wait, 0);

/**
 * The longest a synchronous invocation route keeps a request waiting, in seconds: the container busy for every retry
 * (each busy answer comes at once, before the body is read, DESIGN §4), every backoff at its ceiling, then an
 * invocation that takes SageMaker's whole limit.
 */
export const LONGEST_INVOCATION_SECONDS = REALTIME_INVOCATION_SECONDS + LONGEST_BUSY_WAIT_MS / 1000;
