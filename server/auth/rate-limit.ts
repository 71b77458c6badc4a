import { semifDefaults } from "@decision-console/adapter/contract/semif-settings.ts";
import type { ConsoleConfig } from "../config.ts";
import { storeDialect } from "../store/dialect.ts";
import type { Store } from "../store/store.ts";

/** Keys kept before buckets that have refilled (and so say nothing) are swept. */
const SWEEP_ABOVE = 10_000;

/**
 * Token buckets per key: `burst` at once, refilled at `perMinute`. In memory, so each console process limits on
 * its own (the playground's and the refusal log's limits; sign-in's are in the store). A full bucket is the same as none, so those are swept once many keys exist (keys can come from
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
  take(address: string, name: string): Promise<{ allowed: true } | (Refusal & { limit: keyof typeof loginBudgets })>;
}

type LoginLimit = keyof typeof loginBudgets;

/** Buckets untouched this long have refilled under every budget, so they say nothing and are swept. */
const refilledAfterMs = (budgets: Record<LoginLimit, Budget>) =>
  Math.max(...Object.values(budgets).map((budget) => (budget.burst / budget.perMinute) * 60_000));

/**
 * Sign-in attempts, limited per (client address, user name), per client address and for the whole console.
 * There is deliberately no limit per name alone: guesses from one address lock only that address out of that
 * name, so a flood against a name cannot keep its owner out from another address; only the global ceiling, which
 * bounds the total rate, is shared (while it lasts).
 * The buckets live in the console's store, so every replica behind a load balancer spends from the same ones. One
 * attempt reads and writes its three buckets in one transaction, holding their rows (PostgreSQL: FOR UPDATE, in
 * one order, so attempts never deadlock; SQLite: one writer at a time).
 */
export function createLoginThrottle(
  store: Store,
  budgets: Record<LoginLimit, Budget> = loginBudgets,
  now: () => number = Date.now,
): LoginThrottle {
  const limits = Object.keys(budgets) as LoginLimit[];
  const bucketOf = (limit: LoginLimit, address: string, name: string) =>
    JSON.stringify(
      limit === "addressAndName" ? [limit, address, name] : limit === "address" ? [limit, address] : [limit],
    );
  const locks = storeDialect(store) === "postgres";
  let sweptAt = 0;
  return {
    async take(address, name) {
      const time = now();
      const buckets = limits.map((limit) => ({ limit, bucket: bucketOf(limit, address, name), ...budgets[limit] }));
      const outcome = await store.transaction().execute(async (trx) => {
        await trx
          .insertInto("sign_in_buckets")
          .values(buckets.map(({ bucket, burst }) => ({ bucket, tokens: burst, at_ms: time })))
          .onConflict((conflict) => conflict.column("bucket").doNothing())
          .execute();
        const rows = await trx
          .selectFrom("sign_in_buckets")
          .selectAll()
          .where(
            "bucket",
            "in",
            buckets.map(({ bucket }) => bucket),
          )
          .orderBy("bucket")
          .$if(locks, (query) => query.forUpdate())
          .execute();
        const stored = new Map(rows.map((row) => [row.bucket, row]));
        const levels = buckets.map((entry) => {
          const row = stored.get(entry.bucket)!;
          const refillPerMs = entry.perMinute / 60_000;
          const tokens = Math.min(entry.burst, row.tokens + Math.max(0, time - row.at_ms) * refillPerMs);
          const wait = tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - tokens) / refillPerMs / 1000));
          return { ...entry, tokens, wait };
        });
        const longest = levels.reduce((a, b) => (b.wait > a.wait ? b : a));
        if (longest.wait > 0) return { allowed: false as const, retryAfterSeconds: longest.wait, limit: longest.limit };
        for (const level of levels) {
          await trx
            .updateTable("sign_in_buckets")
            .set({ tokens: level.tokens - 1, at_ms: time })
            .where("bucket", "=", level.bucket)
            .execute();
        }
        return { allowed: true as const };
      });
      const horizon = refilledAfterMs(budgets);
      if (time - sweptAt > horizon) {
        sweptAt = time;
        await store
          .deleteFrom("sign_in_buckets")
          .where("at_ms", "<", time - horizon)
          .execute();
      }
      return outcome;
    },
  };
}

/** The sign-in throttle on the console's store. */
export function loginThrottle(store: Store): LoginThrottle {
  const cached = globalThis as { __consoleLoginThrottles?: WeakMap<Store, LoginThrottle> };
  cached.__consoleLoginThrottles ??= new WeakMap();
  let throttle = cached.__consoleLoginThrottles.get(store);
  if (!throttle) {
    throttle = createLoginThrottle(store);
    cached.__consoleLoginThrottles.set(store, throttle);
  }
  return throttle;
}
