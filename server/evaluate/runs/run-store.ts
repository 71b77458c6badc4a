import { randomUUID } from "node:crypto";
import type { RunStatus } from "../../../contract/evaluate/evaluations.ts";
import type { Db } from "../../store/database.ts";
import type { ItemScore } from "./score-item.ts";

export interface RunRow {
  id: string;
  dataset_id: string;
  status: RunStatus;
  concurrency: number;
  target_accuracy: number;
  created_at: string;
  resumed_at: string;
  finished_at: string | null;
  failure: string | null;
  owner_pid: number | null;
  heartbeat_at: string | null;
}

/** One item's stored outcome: where it belongs in the run, and its score. */
export interface ItemResult extends ItemScore {
  runId: string;
  slot: number;
  position: number;
  itemId: string;
  finishedAt: string;
}

interface ResultRow {
  run_id: string;
  slot: number;
  position: number;
  item_id: string;
  option_ids: string | null;
  probabilities: string | null;
  logits: string | null;
  chosen: string | null;
  latency_ms: number;
  adapter_ms: number | null;
  attempts: number;
  error_kind: string | null;
  error_message: string | null;
  finished_at: string;
}

const parseList = <T>(text: string | null): T[] | null => (text === null ? null : (JSON.parse(text) as T[]));

export function createRun(
  db: Db,
  input: {
    datasetId: string;
    endpoints: readonly string[];
    /** What each endpoint ran on when the run started (instance type, threads), when it could be read. */
    configurations?: readonly (string | null)[];
    concurrency: number;
    targetAccuracy: number;
  },
): RunRow {
  const now = new Date().toISOString();
  const run: RunRow = {
    id: randomUUID(),
    dataset_id: input.datasetId,
    status: "running",
    concurrency: input.concurrency,
    target_accuracy: input.targetAccuracy,
    created_at: now,
    resumed_at: now,
    finished_at: null,
    failure: null,
    owner_pid: null,
    heartbeat_at: null,
  };
  db.transaction(() => {
    db.prepare(
      `INSERT INTO evaluation_runs (id, dataset_id, status, concurrency, target_accuracy, created_at, resumed_at)
       VALUES (@id, @dataset_id, @status, @concurrency, @target_accuracy, @created_at, @resumed_at)`,
    ).run(run);
    const insertTarget = db.prepare(
      "INSERT INTO evaluation_targets (run_id, slot, endpoint_name, configuration) VALUES (?, ?, ?, ?)",
    );
    input.endpoints.forEach((endpoint, slot) => {
      insertTarget.run(run.id, slot, endpoint, input.configurations?.[slot] ?? null);
    });
  })();
  return run;
}

/** Removes a run with its targets and results (they cascade). */
export function deleteRun(db: Db, id: string): void {
  db.prepare("DELETE FROM evaluation_runs WHERE id = ?").run(id);
}

export function findRun(db: Db, id: string): RunRow | null {
  return (db.prepare("SELECT * FROM evaluation_runs WHERE id = ?").get(id) as RunRow | undefined) ?? null;
}

export function listRuns(db: Db): RunRow[] {
  return db.prepare("SELECT * FROM evaluation_runs ORDER BY created_at DESC, id").all() as RunRow[];
}

export function runTargets(db: Db, runId: string): string[] {
  const rows = db.prepare("SELECT endpoint_name FROM evaluation_targets WHERE run_id = ? ORDER BY slot").all(runId) as {
    endpoint_name: string;
  }[];
  return rows.map((row) => row.endpoint_name);
}

export function runTargetConfigurations(db: Db, runId: string): (string | null)[] {
  const rows = db.prepare("SELECT configuration FROM evaluation_targets WHERE run_id = ? ORDER BY slot").all(runId) as {
    configuration: string | null;
  }[];
  return rows.map((row) => row.configuration);
}

export function unfinishedRunIds(db: Db): string[] {
  const rows = db.prepare("SELECT id FROM evaluation_runs WHERE status = 'running' ORDER BY created_at").all() as {
    id: string;
  }[];
  return rows.map((row) => row.id);
}

/** A heartbeat older than this means the owning process is gone even if its pid was reused. */
export const STALE_HEARTBEAT_MS = 30_000;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes ownership of a running run for this process, unless another live process is working on it, so two
 * console processes never send the same item twice. Restarts the ETA clock.
 */
export function claimRun(db: Db, runId: string, pid: number, nowMs: number = Date.now()): boolean {
  return db.transaction(() => {
    const run = findRun(db, runId);
    if (run?.status !== "running") return false;
    const heartbeat = run.heartbeat_at ? Date.parse(run.heartbeat_at) : 0;
    const ownedElsewhere =
      run.owner_pid !== null &&
      run.owner_pid !== pid &&
      processAlive(run.owner_pid) &&
      nowMs - heartbeat < STALE_HEARTBEAT_MS;
    if (ownedElsewhere) return false;
    const now = new Date(nowMs).toISOString();
    db.prepare("UPDATE evaluation_runs SET owner_pid = ?, heartbeat_at = ?, resumed_at = ? WHERE id = ?").run(
      pid,
      now,
      now,
      runId,
    );
    return true;
  })();
}

export function heartbeat(db: Db, runId: string, pid: number): void {
  db.prepare("UPDATE evaluation_runs SET heartbeat_at = ? WHERE id = ? AND owner_pid = ?").run(
    new Date().toISOString(),
    runId,
    pid,
  );
}

/** Ends a run that is still running; a run already ended (e.g. cancelled) keeps its status. */
export function finishRun(db: Db, runId: string, status: Exclude<RunStatus, "running">, failure?: string): boolean {
  const result = db
    .prepare(
      `UPDATE evaluation_runs SET status = ?, finished_at = ?, failure = ?, owner_pid = NULL
       WHERE id = ? AND status = 'running'`,
    )
    .run(status, new Date().toISOString(), failure ?? null, runId);
  return result.changes === 1;
}

export function runStatus(db: Db, runId: string): RunStatus | null {
  const row = db.prepare("SELECT status FROM evaluation_runs WHERE id = ?").get(runId) as
    | { status: RunStatus }
    | undefined;
  return row?.status ?? null;
}

/**
 * Stores one finished item. The primary key (run, slot, position) makes a second write of the same item a
 * no-op, so a finished item is never counted twice; returns whether this write stored it.
 */
export function recordResult(db: Db, result: ItemResult): boolean {
  const info = db
    .prepare(
      `INSERT INTO evaluation_results (run_id, slot, position, item_id, option_ids, probabilities, logits, chosen,
         latency_ms, adapter_ms, attempts, error_kind, error_message, finished_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (run_id, slot, position) DO NOTHING`,
    )
    .run(
      result.runId,
      result.slot,
      result.position,
      result.itemId,
      result.optionIds && JSON.stringify(result.optionIds),
      result.probabilities && JSON.stringify(result.probabilities),
      result.logits && JSON.stringify(result.logits),
      result.chosen,
      result.latencyMs,
      result.adapterMs,
      result.attempts,
      result.errorKind,
      result.errorMessage,
      result.finishedAt,
    );
  return info.changes === 1;
}

export function runResults(db: Db, runId: string): ItemResult[] {
  const rows = db
    .prepare("SELECT * FROM evaluation_results WHERE run_id = ? ORDER BY position, slot")
    .all(runId) as ResultRow[];
  return rows.map((row) => ({
    runId: row.run_id,
    slot: row.slot,
    position: row.position,
    itemId: row.item_id,
    optionIds: parseList<string>(row.option_ids),
    probabilities: parseList<number>(row.probabilities),
    logits: parseList<number>(row.logits),
    chosen: row.chosen,
    latencyMs: row.latency_ms,
    adapterMs: row.adapter_ms,
    attempts: row.attempts,
    errorKind: row.error_kind,
    errorMessage: row.error_message,
    finishedAt: row.finished_at,
  }));
}

/** Finished items per slot, and how many of them finished since the run was last (re)started. */
export function progressCounts(db: Db, run: RunRow): { slot: number; done: number; doneSinceResume: number }[] {
  return db
    .prepare(
      `SELECT slot, COUNT(*) AS done, SUM(CASE WHEN finished_at >= ? THEN 1 ELSE 0 END) AS doneSinceResume
       FROM evaluation_results WHERE run_id = ? GROUP BY slot ORDER BY slot`,
    )
    .all(run.resumed_at, run.id) as { slot: number; done: number; doneSinceResume: number }[];
}

/** Every finished item of a run: its dataset position and when it finished (for the time left). */
export function finishedItems(db: Db, runId: string): { position: number; finishedAt: string }[] {
  return db
    .prepare("SELECT position, finished_at AS finishedAt FROM evaluation_results WHERE run_id = ?")
    .all(runId) as { position: number; finishedAt: string }[];
}

export function finishedKeys(db: Db, runId: string): Set<string> {
  const rows = db.prepare("SELECT slot, position FROM evaluation_results WHERE run_id = ?").all(runId) as {
    slot: number;
    position: number;
  }[];
  return new Set(rows.map((row) => `${row.slot}:${row.position}`));
}
