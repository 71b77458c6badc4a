import type { Selectable } from "kysely";
import type { AuditRecord, AuditResult } from "../../contract/audit/audit.ts";
import { consoleStore } from "../store/console-database.ts";
import type { ConsoleTables } from "../store/schema.ts";
import type { Store } from "../store/store.ts";

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
export async function recordAudit(entry: AuditEntry, store: Store = consoleStore()): Promise<AuditRecord> {
  const at = new Date().toISOString();
  const detail = entry.detail === undefined ? null : JSON.stringify(entry.detail);
  const { id } = await store
    .insertInto("audit_log")
    .values({
      at,
      actor: entry.actor,
      action: entry.action,
      target: entry.target,
      aws_request_id: entry.awsRequestId ?? null,
      result: entry.result,
      detail,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return {
    id,
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
export async function listAudit(query: AuditQuery, store: Store = consoleStore()): Promise<AuditRecord[]> {
  let select = store.selectFrom("audit_log").selectAll();
  if (query.beforeId !== undefined) select = select.where("id", "<", query.beforeId);
  if (query.actor) select = select.where("actor", "=", query.actor);
  if (query.action) select = select.where("action", "=", query.action);
  const rows = await select.orderBy("id", "desc").limit(query.limit).execute();
  return rows.map(recordOf);
}

/** The newest successful record of one of `actions` done to `target`, or null when there is none. */
export async function lastDoneTo(
  store: Store,
  target: string,
  actions: readonly string[],
): Promise<AuditRecord | null> {
  const row = await store
    .selectFrom("audit_log")
    .selectAll()
    .where("target", "=", target)
    .where("action", "in", [...actions])
    .where("result", "=", "ok")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? recordOf(row) : null;
}

function recordOf(row: Selectable<ConsoleTables["audit_log"]>): AuditRecord {
  return {
    id: row.id,
    at: row.at,
    actor: row.actor,
    action: row.action,
    target: row.target,
    awsRequestId: row.aws_request_id,
    result: row.result,
    detail: row.detail === null ? null : JSON.parse(row.detail),
  };
}
