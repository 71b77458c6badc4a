import type { InvocationRecord } from "../../contract/invoke/invoke.ts";
import type { Store } from "../store/store.ts";

const previewBytes = 2048;
/** Per endpoint; older rows are dropped so the table stays small. */
const keepPerEndpoint = 200;

export interface InvocationOutcome {
  endpointName: string;
  stream: boolean;
  status: number;
  latencyMs: number;
  retries: number;
  requestBody: string;
  error: string | null;
  user: string | null;
}

export async function recordInvocation(store: Store, outcome: InvocationOutcome, at: Date = new Date()): Promise<void> {
  await store.transaction().execute(async (trx) => {
    await trx
      .insertInto("console_invocations")
      .values({
        endpoint_name: outcome.endpointName,
        at: at.toISOString(),
        stream: outcome.stream ? 1 : 0,
        status: outcome.status,
        latency_ms: outcome.latencyMs,
        retries: outcome.retries,
        request_bytes: Buffer.byteLength(outcome.requestBody),
        request_preview: outcome.requestBody.slice(0, previewBytes),
        error: outcome.error,
        user_name: outcome.user,
      })
      .execute();
    await trx
      .deleteFrom("console_invocations")
      .where("endpoint_name", "=", outcome.endpointName)
      .where("id", "not in", (eb) =>
        eb
          .selectFrom("console_invocations")
          .select("id")
          .where("endpoint_name", "=", outcome.endpointName)
          .orderBy("id", "desc")
          .limit(keepPerEndpoint),
      )
      .execute();
  });
}

/** Newest first. */
export async function recentInvocations(store: Store, endpointName: string, limit = 50): Promise<InvocationRecord[]> {
  const rows = await store
    .selectFrom("console_invocations")
    .selectAll()
    .where("endpoint_name", "=", endpointName)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    endpointName: row.endpoint_name,
    at: row.at,
    stream: row.stream === 1,
    status: row.status,
    latencyMs: row.latency_ms,
    retries: row.retries,
    requestBytes: row.request_bytes,
    requestPreview: row.request_preview,
    error: row.error,
    user: row.user_name,
  }));
}
