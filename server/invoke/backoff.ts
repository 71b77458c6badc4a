import { realSleep, type Sleep } from "../aws/sleep.ts";

export interface BusyRetryPolicy {
  /** Retries after the first attempt; 0 turns retrying off. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  sleep: Sleep;
  /** Uniform in [0, 1); injected so tests can pin the jitter. */
  random: () => number;
}

export const defaultBusyRetryPolicy: BusyRetryPolicy = {
  maxRetries: 6,
  baseDelayMs: 100,
  maxDelayMs: 2000,
  sleep: realSleep,
  random: Math.random,
};

/**
 * Capped exponential backoff with full jitter: a uniform wait in [0, min(cap, base * 2^retry)). The jitter spreads
 * clients that were refused together, so they do not all come back at the same instant and collide again.
 */
export function backoffDelayMs(
  retry: number,
  policy: Pick<BusyRetryPolicy, "baseDelayMs" | "maxDelayMs" | "random">,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.floor(policy.random() * ceiling);
}

/** Runs `attempt`, retrying while `isBusy` says the failure was a retryable "busy"; reports how many retries it took. */
export async function withBusyRetry<T>(
  attempt: () => Promise<T>,
  isBusy: (error: unknown) => boolean,
  policy: BusyRetryPolicy = defaultBusyRetryPolicy,
): Promise<{ value: T; retries: number }> {
  for (let retry = 0; ; retry++) {
    try {
      return { value: await attempt(), retries: retry };
    } catch (error) {
      if (retry >= policy.maxRetries || !isBusy(error)) {
        throw Object.assign(error as object, { busyRetries: retry });
      }
      await policy.sleep(backoffDelayMs(retry, policy));
    }
  }
}
