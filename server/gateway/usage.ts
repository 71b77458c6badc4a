import type { GatewayKeyUsage } from "../../contract/gateway/keys.ts";
import type { ConsoleTables } from "../store/schema.ts";
import type { Store } from "../store/store.ts";

export interface GatewayCall {
  keyId: string;
  endpointName: string | null;
  protocol: ConsoleTables["gateway_usage"]["protocol"];
  status: number;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  inferenceId: string;
  atMs: number;
}

/** One row per gateway call, refused ones included (a key at its limit, a bad request). */
export async function recordGatewayCall(store: Store, call: GatewayCall): Promise<void> {
  await store
    .insertInto("gateway_usage")
    .values({
      key_id: call.keyId,
      endpoint_name: call.endpointName,
      protocol: call.protocol,
      status: call.status,
      input_tokens: call.inputTokens,
      output_tokens: call.outputTokens,
      latency_ms: call.latencyMs,
      inference_id: call.inferenceId,
      at_ms: call.atMs,
    })
    .execute();
}

const MINUTE_MS = 60_000;

/** Each key's calls since `sinceMs`: totals, the last call, and a row per minute that had calls. */
export async function gatewayKeyUsage(
  store: Store,
  keyIds: readonly string[],
  sinceMs: number,
): Promise<Map<string, GatewayKeyUsage>> {
  const usage = new Map<string, GatewayKeyUsage>(
    keyIds.map((keyId) => [keyId, { keyId, calls: 0, tokens: 0, lastCallAt: null, perMinute: [] }]),
  );
  if (keyIds.length === 0) return usage;
  const rows = await store
    .selectFrom("gateway_usage")
    .select(["key_id", "status", "input_tokens", "output_tokens", "at_ms"])
    .where("key_id", "in", keyIds)
    .where("at_ms", ">=", sinceMs)
    .orderBy("at_ms")
    .execute();
  for (const row of rows) {
    const entry = usage.get(row.key_id)!;
    const at = Number(row.at_ms);
    const tokens = row.input_tokens + row.output_tokens;
    const minute = new Date(Math.floor(at / MINUTE_MS) * MINUTE_MS).toISOString();
    let bucket = entry.perMinute.at(-1);
    if (bucket?.minute !== minute) {
      bucket = { minute, calls: 0, refused: 0, tokens: 0 };
      entry.perMinute.push(bucket);
    }
    bucket.calls += 1;
    if (row.status >= 400) bucket.refused += 1;
    bucket.tokens += tokens;
    entry.calls += 1;
    entry.tokens += tokens;
    entry.lastCallAt = new Date(at).toISOString();
  }
  return usage;
}

/** How many decisions the gateway sent an endpoint since `sinceMs`, and how many of them it answered. */
export async function endpointGatewayCalls(
  store: Store,
  endpointName: string,
  sinceMs: number,
): Promise<{ calls: number; answered: number }> {
  const rows = await store
    .selectFrom("gateway_usage")
    .select("status")
    .where("endpoint_name", "=", endpointName)
    .where("at_ms", ">=", sinceMs)
    .execute();
  return { calls: rows.length, answered: rows.filter((row) => row.status < 400).length };
}
