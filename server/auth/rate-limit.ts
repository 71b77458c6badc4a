import type { Env } from "./env.ts";

/**
 * A token bucket per key (a user name): `burst` requests at once, refilled at `perMinute`. In memory, so each
 * console process limits on its own; that is enough to stop one user's script from monopolising an endpoint.
 */
export interface RateLimiter {
  take(key: string): { allowed: true } | { allowed: false; retryAfterSeconds: number };
}

export function createRateLimiter(options: { burst: number; perMinute: number; now?: () => number }): RateLimiter {
  const now = options.now ?? Date.now;
  const refillPerMs = options.perMinute / 60_000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key) {
      const time = now();
      const bucket = buckets.get(key) ?? { tokens: options.burst, at: time };
      bucket.tokens = Math.min(options.burst, bucket.tokens + (time - bucket.at) * refillPerMs);
      bucket.at = time;
      buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { allowed: true };
      }
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerMs / 1000)) };
    },
  };
}

/** The adapter's `SEMIF_MAX_BODY_BYTES` default: the playground refuses what the endpoint would refuse anyway. */
export const playgroundMaxBodyBytes = 262_144;

/** The playground's limiter, shared by every bundle in the process; tuned by `CONSOLE_INVOKE_BURST` and `..._PER_MINUTE`. */
export function playgroundRateLimiter(env: Env = process.env): RateLimiter {
  const store = globalThis as { __consolePlaygroundLimiter?: RateLimiter };
  store.__consolePlaygroundLimiter ??= createRateLimiter({
    burst: positive(env.CONSOLE_INVOKE_BURST, 20),
    perMinute: positive(env.CONSOLE_INVOKE_PER_MINUTE, 120),
  });
  return store.__consolePlaygroundLimiter;
}

function positive(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}

/** Sign-in attempts per user name: a handful at once, then one every six seconds, to slow password guessing. */
export function loginRateLimiter(): RateLimiter {
  const store = globalThis as { __consoleLoginLimiter?: RateLimiter };
  store.__consoleLoginLimiter ??= createRateLimiter({ burst: 5, perMinute: 10 });
  return store.__consoleLoginLimiter;
}
