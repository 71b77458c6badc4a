import { type RawBuilder, sql } from "kysely";
import type { GatewayKey } from "../../contract/gateway/keys.ts";
import type { Store } from "../store/store.ts";

export type LimitRefusal = { limit: "requests" | "tokens"; retryAfterSeconds: number };

/**
 * A key's requests-per-minute and tokens-per-minute limits, as token buckets in the console's store, so every
 * replica spends from the same ones (as the sign-in throttle does, auth/rate-limit.ts). Each bucket holds up to a
 * minute's allowance and refills continuously. A call needs one request token and a tokens bucket that is not in
 * debt; the tokens it used are only known after the answer, so they are charged then and may take the bucket below
 * zero, which refuses the key's next calls until it has refilled.
 *
 * `admit` spends only while the key's row still says what `key` says and is not revoked: the same statement proves
 * the key and spends its limit, so a revoked or changed key is seen by every replica on its next call without a
 * read of its own. "key-changed": the row is not `key` any more (revoked, changed or gone); read it again.
 */
export interface KeyLimits {
  admit(key: GatewayKey): Promise<LimitRefusal | "key-changed" | null>;
  charge(key: GatewayKey, tokens: number): Promise<void>;
}

interface Bucket {
  bucket: string;
  perMinute: number;
}

const bucketsOf = (key: GatewayKey): { requests: Bucket; tokens: Bucket } => ({
  requests: { bucket: `${key.id}:requests`, perMinute: key.requestsPerMinute },
  tokens: { bucket: `${key.id}:tokens`, perMinute: key.tokensPerMinute },
});

/** A bucket's level at `time`: its stored level plus what refilled since, at most a minute's allowance. */
function level(row: { tokens: number; at_ms: number }, perMinute: number, time: number): number {
  return Math.min(perMinute, row.tokens + Math.max(0, time - Number(row.at_ms)) * (perMinute / 60_000));
}

/** `level` in SQL, over the row `table` names (CASE, not min/least, which the two dialects spell apart). */
function levelSql(table: string, { perMinute }: Bucket, time: number): RawBuilder<number> {
  const tokens = sql.ref(`${table}.tokens`);
  const at = sql.ref(`${table}.at_ms`);
  const refilled = sql`${tokens} + (case when ${time} > ${at} then ${time} - ${at} else 0 end) * cast(${perMinute / 60_000} as double precision)`;
  return sql<number>`(case when ${refilled} < ${perMinute} then ${refilled} else cast(${perMinute} as double precision) end)`;
}

/** Whole seconds until a bucket refilling at `perMinute` rises from `tokens` to `needed`. */
function secondsUntil(tokens: number, needed: number, perMinute: number): number {
  return Math.max(1, Math.ceil((needed - tokens) / (perMinute / 60_000) / 1000));
}

/**
 * Admitting and charging are one statement each (an upsert that reads the bucket's level and spends from it in the
 * same row lock; admitting inserts only from the key's unchanged row), so a call costs the store one round trip
 * before InvokeEndpoint, its key check included, on SQLite and PostgreSQL alike.
 */
export function storeKeyLimits(store: Store, now: () => number = Date.now): KeyLimits {
  /** The key's row where it still says what `key` says and is not revoked (its expiry is the caller's to check). */
  const unchangedKey = (key: GatewayKey) =>
    store
      .selectFrom("gateway_keys")
      .where("id", "=", key.id)
      .where("revoked_at", "is", null)
      .where("endpoints", "=", JSON.stringify(key.endpoints))
      .where("aliases", "=", JSON.stringify(key.aliases))
      .where("requests_per_minute", "=", key.requestsPerMinute)
      .where("tokens_per_minute", "=", key.tokensPerMinute)
      .where("expires_at", key.expiresAt === null ? "is" : "=", key.expiresAt);
  async function refusal(key: GatewayKey, time: number): Promise<LimitRefusal | "key-changed"> {
    if (!(await unchangedKey(key).select("id").executeTakeFirst())) return "key-changed";
    const { requests, tokens } = bucketsOf(key);
    const rows = await store
      .selectFrom("gateway_buckets")
      .selectAll()
      .where("bucket", "in", [requests.bucket, tokens.bucket])
      .execute();
    const stored = new Map(rows.map((row) => [row.bucket, row]));
    const full = (bucket: Bucket) => ({ tokens: bucket.perMinute, at_ms: time });
    const requestLevel = level(stored.get(requests.bucket) ?? full(requests), requests.perMinute, time);
    if (requestLevel < 1) {
      return { limit: "requests", retryAfterSeconds: secondsUntil(requestLevel, 1, requests.perMinute) };
    }
    const tokenLevel = level(stored.get(tokens.bucket) ?? full(tokens), tokens.perMinute, time);
    return { limit: "tokens", retryAfterSeconds: secondsUntil(Math.min(tokenLevel, 0), 0, tokens.perMinute) };
  }
  return {
    async admit(key) {
      const time = now();
      const { requests, tokens } = bucketsOf(key);
      const requestLevel = levelSql("gateway_buckets", requests, time);
      const tokenLevel = sql<number>`coalesce((select ${levelSql("spent", tokens, time)} from gateway_buckets as spent where spent.bucket = ${tokens.bucket}), 1)`;
      const admitted = await store
        .insertInto("gateway_buckets")
        .columns(["bucket", "tokens", "at_ms"])
        .expression(
          unchangedKey(key).select([
            sql<string>`cast(${requests.bucket} as text)`.as("bucket"),
            sql<number>`cast(${requests.perMinute - 1} as double precision)`.as("tokens"),
            sql<number>`cast(${time} as bigint)`.as("at_ms"),
          ]),
        )
        .onConflict((conflict) =>
          conflict
            .column("bucket")
            .doUpdateSet({ tokens: sql<number>`${requestLevel} - 1`, at_ms: time })
            .where(sql<boolean>`${requestLevel} >= 1 and ${tokenLevel} > 0`),
        )
        .returning("bucket")
        .executeTakeFirst();
      return admitted ? null : refusal(key, time);
    },
    async charge(key, used) {
      if (used <= 0) return;
      const time = now();
      const { tokens } = bucketsOf(key);
      await store
        .insertInto("gateway_buckets")
        .values({ bucket: tokens.bucket, tokens: tokens.perMinute - used, at_ms: time })
        .onConflict((conflict) =>
          conflict
            .column("bucket")
            .doUpdateSet({ tokens: sql<number>`${levelSql("gateway_buckets", tokens, time)} - ${used}`, at_ms: time }),
        )
        .execute();
    },
  };
}
