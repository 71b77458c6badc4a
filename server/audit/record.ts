import type { AuditRecord, AuditResult } from "../../contract/audit/audit.ts";
import { consoleDatabase } from "../store/console-database.ts";
import type { Db } from "../store/database.ts";

export interface AuditEntry {
  /** The signed-in user's name (`local` in local mode). */
  actor: string;
  /** What was done, as `area.verb`: `endpoint.delete`, `build.start`, `auth.login`. */
  action: string;
  /** What it was done to: an endpoint name, a build id. */
  target: string;
  awsRequestId?: string | null;
  result: AuditResult;
  /** Anything that helps a reader later (the instance count asked for, the error message); stored as JSON. */
  detail?: unknown;
}

/** Appends one line to the audit log. Call it once per mutation, after the outcome is known, success or failure. */
export function recordAudit(entry: AuditEntry, db: Db = consoleDatabase()): AuditRecord {
  const at = new Date().toISOString();
  const detail = entry.detail === undefined ? null : JSON.stringify(entry.detail);
  const result = db
    .prepare(
      "INSERT INTO audit_log (at, actor, action, target, aws_request_id, result, detail) VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .run(at, entry.actor, entry.action, entry.target, entry.awsRequestId ?? null, entry.result, detail);
  return {
    id: Number(result.lastInsertRowid),
    at,
    actor: entry.actor,
    action: entry.action,
    target: entry.target,
    awsRequestId: entry.awsRequestId ?? null,
    result: entry.result,
    detail: entry.detail ?? null,
  };
}

/** The AWS request id an SDK v3 output or error carries in `$metadata`, if any. */
export function awsRequestIdOf(value: unknown): string | null {
  const metadata = (value as { $metadata?: { requestId?: unknown } } | null)?.$metadata;
  return typeof metadata?.requestId === "string" ? metadata.requestId : null;
}

export interface AuditQuery {
  limit: number;
  /** Only records older than this id: the next page. */
  beforeId?: number;
  actor?: string;
  action?: string;
}

/** Newest first. */
export function listAudit(query: AuditQuery, db: Db = consoleDatabase()): AuditRecord[] {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (query.beforeId !== undefined) {
    where.push("id < ?");
    params.push(query.beforeId);
  }
  if (query.actor) {
    where.push("actor = ?");
    params.push(query.actor);
  }
  if (query.action) {
    where.push("action = ?");
    params.push(query.action);
  }
  const sql = `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY id DESC LIMIT ?`;
  const rows = db.prepare(sql).all(...params, query.limit) as {
    id: number;
    at: string;
    actor: string;
    action: string;
    target: string;
    aws_request_id: string | null;
    result: AuditResult;
    detail: string | null;
  }[];
  return rows.map((row) => ({
    id: row.id,
    at: row.at,
    actor: row.actor,
    action: row.action,
    target: row.target,
    awsRequestId: row.aws_request_id,
    result: row.result,
    detail: row.detail === null ? null : JSON.parse(row.detail),
  }));
}
