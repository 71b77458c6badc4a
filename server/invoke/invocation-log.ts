import type { InvocationRecord } from "../../contract/invoke/invoke.ts";
import type { Db } from "../store/database.ts";

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

export function recordInvocation(db: Db, outcome: InvocationOutcome, at: Date = new Date()): void {
  db.transaction(() => {
    db.prepare(
      `INSERT INTO console_invocations
         (endpoint_name, at, stream, status, latency_ms, retries, request_bytes, request_preview, error, user_name)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      outcome.endpointName,
      at.toISOString(),
      outcome.stream ? 1 : 0,
      outcome.status,
      outcome.latencyMs,
      outcome.retries,
      Buffer.byteLength(outcome.requestBody),
      outcome.requestBody.slice(0, previewBytes),
      outcome.error,
      outcome.user,
    );
    db.prepare(
      `DELETE FROM console_invocations WHERE endpoint_name = ? AND id NOT IN
         (SELECT id FROM console_invocations WHERE endpoint_name = ? ORDER BY id DESC LIMIT ?)`,
    ).run(outcome.endpointName, outcome.endpointName, keepPerEndpoint);
  })();
}

interface Row {
  id: number;
  endpoint_name: string;
  at: string;
  stream: number;
  status: number;
  latency_ms: number;
  retries: number;
  request_bytes: number;
  request_preview: string;
  error: string | null;
  user_name: string | null;
}

/** Newest first. */
export function recentInvocations(db: Db, endpointName: string, limit = 50): InvocationRecord[] {
  const rows = db
    .prepare("SELECT * FROM console_invocations WHERE endpoint_name = ? ORDER BY id DESC LIMIT ?")
    .all(endpointName, limit) as Row[];
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
