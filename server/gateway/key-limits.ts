import type { GatewayKey } from "../../contract/gateway/keys.ts";
import { storeDialect } from "../store/dialect.ts";
import type { Store } from "../store/store.ts";

export type LimitRefusal = { limit: "requests" | "tokens"; retryAfterSeconds: number };

/**
 * A key's requests-per-minute and tokens-per-minute limits, as token buckets in the console's store, so every
 * replica spends from the same ones (as the sign-in throttle does, auth/rate-limit.ts). Each bucket holds up to a
 * minute's allowance and refills continuously. A call needs one request token and a tokens bucket that is not in
 * debt; the tokens it used are only known after the answer, so they are charged then and may take the bucket below
 * zero, which refuses the key's next calls until it has refilled.
 */
export interface KeyLimits {
  admit(key: GatewayKey): Promise<LimitRefusal | null>;
  charge(key: GatewayKey, tokens: number): Promise<void>;
}

const bucketsOf = (key: GatewayKey) => ({
  requests: { bucket: `${key.id}:requests`, perMinute: key.requestsPerMinute },
  tokens: { bucket: `${key.id}:tokens`, perMinute: key.tokensPerMinute },
});

/** A bucket's level at `time`: its stored level plus what refilled since, at most a minute's allowance. */
function level(row: { tokens: number; at_ms: number }, perMinute: number, time: number): number {
  return Math.min(perMinute, row.tokens + Math.max(0, time - Number(row.at_ms)) * (perMinute / 60_000));
}

/** Whole seconds until a bucket refilling at `perMinute` rises from `tokens` to `needed`. */
function secondsUntil(tokens: number, needed: number, perMinute: number): number {
  return Math.max(1, Math.ceil((needed - tokens) / (perMinute / 60_000) / 1000));
}

export function storeKeyLimits(store: Store, now: () => number = Date.now): KeyLimits {
  const locks = storeDialect(store) === "postgres";
  return {
    async admit(key) {
      const time = now();
      const { requests, tokens } = bucketsOf(key);
      return store.transaction().execute(async (trx) => {
        await trx
          .insertInto("gateway_buckets")
          .values([
            { bucket: requests.bucket, tokens: requests.perMinute, at_ms: time },
            { bucket: tokens.bucket, tokens: tokens.perMinute, at_ms: time },
          ])
          .onConflict((conflict) => conflict.column("bucket").doNothing())
          .execute();
        const rows = await trx
          .selectFrom("gateway_buckets")
          .selectAll()
          .where("bucket", "in", [requests.bucket, tokens.bucket])
          .orderBy("bucket")
          .$if(locks, (query) => query.forUpdate())
          .execute();
        const stored = new Map(rows.map((row) => [row.bucket, row]));
        const requestLevel = level(stored.get(requests.bucket)!, requests.perMinute, time);
        const tokenLevel = level(stored.get(tokens.bucket)!, tokens.perMinute, time);
        if (requestLevel < 1) {
          return { limit: "requests", retryAfterSeconds: secondsUntil(requestLevel, 1, requests.perMinute) };
        }
        if (tokenLevel <= 0) {
          return { limit: "tokens", retryAfterSeconds: secondsUntil(tokenLevel, 0, tokens.perMinute) };
        }
        await trx
          .updateTable("gateway_buckets")
          .set({ tokens: requestLevel - 1, at_ms: time })
          .where("bucket", "=", requests.bucket)
          .execute();
        await trx
          .updateTable("gateway_buckets")
          .set({ tokens: tokenLevel, at_ms: time })
          .where("bucket", "=", tokens.bucket)
          .execute();
        return null;
      });
    },
    async charge(key, used) {
      if (used <= 0) return;
      const time = now();
      const { tokens } = bucketsOf(key);
      await store.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom("gateway_buckets")
          .selectAll()
          .where("bucket", "=", tokens.bucket)
          .$if(locks, (query) => query.forUpdate())
          .executeTakeFirst();
        const before = row ? level(row, tokens.perMinute, time) : tokens.perMinute;
        await trx
          .insertInto("gateway_buckets")
          .values({ bucket: tokens.bucket, tokens: before - used, at_ms: time })
          .onConflict((conflict) => conflict.column("bucket").doUpdateSet({ tokens: before - used, at_ms: time }))
          .execute();
      });
    },
  };
}
