import { semifDefaults } from "@decision-console/adapter/contract/semif-settings.ts";
import type { ConsoleConfig } from "../config.ts";

/** Keys kept before buckets that have refilled (and so say nothing) are swept. */
const SWEEP_ABOVE = 10_000;

/**
 * Token buckets per key: `burst` at once, refilled at `perMinute`. In memory, so each console process limits on
 * its own. A full bucket is the same as none, so those are swept once many keys exist (keys can come from
 * clients: addresses and user names).
 */
class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly refillPerMs: number;

  constructor(
    private readonly burst: number,
    perMinute: number,
    private readonly now: () => number,
  ) {
    this.refillPerMs = perMinute / 60_000;
  }

  /** Seconds until `key` has a token: 0 when it has one now. */
  wait(key: string): number {
    const tokens = this.tokens(key, this.now());
    return tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - tokens) / this.refillPerMs / 1000));
  }

  /** Spends one of `key`'s tokens (after `wait(key)` said 0). */
  take(key: string): void {
    const time = this.now();
    this.buckets.set(key, { tokens: this.tokens(key, time) - 1, at: time });
    if (this.buckets.size > SWEEP_ABOVE) this.sweep(time);
  }

  private tokens(key: string, time: number): number {
    const bucket = this.buckets.get(key);
    return bucket ? Math.min(this.burst, bucket.tokens + (time - bucket.at) * this.refillPerMs) : this.burst;
  }

  private sweep(time: number): void {
    for (const key of this.buckets.keys()) if (this.tokens(key, time) >= this.burst) this.buckets.delete(key);
  }
}

export type Refusal = { allowed: false; retryAfterSeconds: number };

/** One token bucket per key (a user name): enough to stop one user's script from monopolising an endpoint. */
export interface RateLimiter {
  take(key: string): { allowed: true } | Refusal;
}

export function createRateLimiter(options: { burst: number; perMinute: number; now?: () => number }): RateLimiter {
  const buckets = new TokenBuckets(options.burst, options.perMinute, options.now ?? Date.now);
  return {
    take(key) {
      const wait = buckets.wait(key);
      if (wait > 0) return { allowed: false, retryAfterSeconds: wait };
      buckets.take(key);
      return { allowed: true };
    },
  };
}

/** The adapter's `SEMIF_MAX_BODY_BYTES` default: the playground refuses what the endpoint would refuse anyway. */
export const playgroundMaxBodyBytes = semifDefaults.maxBodyBytes;

/** The playground's limiter, shared by every bundle in the process; tuned by `CONSOLE_INVOKE_BURST` and `..._PER_MINUTE`. */
export function playgroundRateLimiter(
  settings: Pick<ConsoleConfig, "CONSOLE_INVOKE_BURST" | "CONSOLE_INVOKE_PER_MINUTE">,
): RateLimiter {
  const store = globalThis as { __consolePlaygroundLimiter?: RateLimiter };
  store.__consolePlaygroundLimiter ??= createRateLimiter({
    burst: settings.CONSOLE_INVOKE_BURST,
    perMinute: settings.CONSOLE_INVOKE_PER_MINUTE,
  });
  return store.__consolePlaygroundLimiter;
}

type Budget = { burst: number; perMinute: number };

export const loginBudgets = {
  /** Guessing one name's password from one address. */
  addressAndName: { burst: 5, perMinute: 10 },
  /** One address trying many names (password spraying). */
  address: { burst: 20, perMinute: 30 },
  /** Everyone together: bounds distributed guessing and the argon2 work sign-in can cost. */
  everyone: { burst: 60, perMinute: 120 },
} satisfies Record<string, Budget>;

export interface LoginThrottle {
  /** Spends an attempt in every limit, or none when one refuses (a refused attempt costs no argon2 work). */
  take(address: string, name: string): { allowed: true } | (Refusal & { limit: keyof typeof loginBudgets });
}

/**
 * Sign-in attempts, limited per (client address, user name), per client address and for the whole console.
 * There is deliberately no limit per name alone: guesses from one address lock only that address out of that
 * name, so a flood against a name cannot keep its owner out from another address; only the global ceiling, which
 * bounds the total rate, is shared (while it lasts).
 */
export function createLoginThrottle(
  budgets: Record<keyof typeof loginBudgets, Budget> = loginBudgets,
  now: () => number = Date.now,
): LoginThrottle {
  const limits = (Object.keys(budgets) as (keyof typeof loginBudgets)[]).map((limit) => ({
    limit,
    buckets: new TokenBuckets(budgets[limit].burst, budgets[limit].perMinute, now),
  }));
  const keyOf = (limit: keyof typeof loginBudgets, address: string, name: string) =>
    limit === "addressAndName" ? `${address}\u0000${name}` : limit === "address" ? address : "";
  return {
    take(address, name) {
      const waits = limits.map(({ limit, buckets }) => ({ limit, wait: buckets.wait(keyOf(limit, address, name)) }));
      const longest = waits.reduce((a, b) => (b.wait > a.wait ? b : a));
      if (longest.wait > 0) return { allowed: false, retryAfterSeconds: longest.wait, limit: longest.limit };
      for (const { limit, buckets } of limits) buckets.take(keyOf(limit, address, name));
      return { allowed: true };
    },
  };
}

/** The process's sign-in throttle, shared by every bundle. */
export function loginThrottle(): LoginThrottle {
  const store = globalThis as { __consoleLoginThrottle?: LoginThrottle };
  store.__consoleLoginThrottle ??= createLoginThrottle();
  return store.__consoleLoginThrottle;
}
