import { errorBodySchema } from "@decision-console/adapter/contract";
import { BUSY_RETRY, backoffCeilingMs } from "../../contract/invoke/invocation-budget.ts";
import { realSleep, type Sleep } from "../aws/sleep.ts";

/**
 * The console's one busy-retry policy, for the playground, evaluations and the load bench alike: only the
 * container's own 503 `{"error": ..., "retryable": true}` (busy or still loading, DESIGN §4) is retried, with
 * capped exponential backoff and full jitter. Any other answer, a 503 without `retryable` included, is final.
 */
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
  ...BUSY_RETRY,
  sleep: realSleep,
  random: Math.random,
};

function parsedBody(body: unknown): unknown {
  if (typeof body !== "string") return body;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** Whether a container's answer (its status and body, parsed or as text) says "busy, retry". */
export function isBusyAnswer(status: number | undefined, body: unknown): boolean {
  return status === 503 && errorBodySchema.safeParse(parsedBody(body)).data?.retryable === true;
}

/**
 * Capped exponential backoff with full jitter: a uniform wait in [0, min(cap, base * 2^retry)). The jitter spreads
 * clients that were refused together, so they do not all come back at the same instant and collide again.
 */
export function backoffDelayMs(
  retry: number,
  policy: Pick<BusyRetryPolicy, "baseDelayMs" | "maxDelayMs" | "random">,
): number {
  return Math.floor(policy.random() * backoffCeilingMs(retry, policy));
}

/**
 * Runs `attempt` again while `isBusy` says its outcome was a busy answer, up to the policy's retries; the last
 * outcome comes back with how many retries it took. An abort of `signal` ends the wait between attempts.
 */
export async function retryWhileBusy<T>(
  attempt: () => Promise<T>,
  isBusy: (outcome: T) => boolean,
  policy: BusyRetryPolicy = defaultBusyRetryPolicy,
  signal?: AbortSignal,
): Promise<{ value: T; retries: number }> {
  for (let retry = 0; ; retry++) {
    const value = await attempt();
    if (retry >= policy.maxRetries || !isBusy(value)) return { value, retries: retry };
    await policy.sleep(backoffDelayMs(retry, policy), signal);
  }
}
