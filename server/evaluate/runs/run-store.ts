import { randomUUID } from "node:crypto";
import type { Selectable } from "kysely";
import type { RunStatus } from "../../../contract/evaluate/evaluations.ts";
import type { ConsoleTables } from "../../store/schema.ts";
import type { Store } from "../../store/store.ts";
import type { ItemScore } from "./score-item.ts";

export type RunRow = Selectable<ConsoleTables["evaluation_runs"]>;

/** One item's stored outcome: where it belongs in the run, and its score. */
export interface ItemResult extends ItemScore {
  runId: string;
  slot: number;
  position: number;
  itemId: string;
  finishedAt: string;
}

const parseList = <T>(text: string | null): T[] | null => (text === null ? null : (JSON.parse(text) as T[]));

export async function createRun(
  store: Store,
  input: {
    datasetId: string;
    endpoints: readonly string[];
    /** What each endpoint ran on when the run started (instance type, threads), when it could be read. */
    configurations?: readonly (string | null)[];
    concurrency: number;
    targetAccuracy: number;
  },
): Promise<RunRow> {
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
  };
  const targets = input.endpoints.map((endpoint, slot) => ({
    run_id: run.id,
    slot,
    endpoint_name: endpoint,
    configuration: input.configurations?.[slot] ?? null,
  }));
  await store.transaction().execute(async (trx) => {
    await trx.insertInto("evaluation_runs").values(run).execute();
    if (targets.length > 0) await trx.insertInto("evaluation_targets").values(targets).execute();
  });
  return run;
}

/** Removes a run with its targets and results (they cascade). */
export async function deleteRun(store: Store, id: string): Promise<void> {
  await store.deleteFrom("evaluation_runs").where("id", "=", id).execute();
}

export async function findRun(store: Store, id: string): Promise<RunRow | null> {
  return (await store.selectFrom("evaluation_runs").selectAll().where("id", "=", id).executeTakeFirst()) ?? null;
}

/** Newest first; runs created in the same instant by id. */
export async function listRuns(store: Store): Promise<RunRow[]> {
  return store.selectFrom("evaluation_runs").selectAll().orderBy("created_at", "desc").orderBy("id").execute();
}

export async function runTargets(store: Store, runId: string): Promise<string[]> {
  const rows = await store
    .selectFrom("evaluation_targets")
    .select("endpoint_name")
    .where("run_id", "=", runId)
    .orderBy("slot")
    .execute();
  return rows.map((row) => row.endpoint_name);
}

export async function runTargetConfigurations(store: Store, runId: string): Promise<(string | null)[]> {
  const rows = await store
    .selectFrom("evaluation_targets")
    .select("configuration")
    .where("run_id", "=", runId)
    .orderBy("slot")
    .execute();
  return rows.map((row) => row.configuration);
}

/** Oldest first. */
export async function unfinishedRunIds(store: Store): Promise<string[]> {
  const rows = await store
    .selectFrom("evaluation_runs")
    .select("id")
    .where("status", "=", "running")
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => row.id);
}

/** The lease whose holder works the run (server/store/leases.ts): one console replica at a time. */
export const runLeaseName = (runId: string) => `evaluation-run:${runId}`;

/** Restarts the ETA clock of a running run that a replica has just taken up. */
export async function markResumed(store: Store, runId: string, nowMs: number = Date.now()): Promise<boolean> {
  const resumed = await store
    .updateTable("evaluation_runs")
    .set({ resumed_at: new Date(nowMs).toISOString() })
    .where("id", "=", runId)
    .where("status", "=", "running")
    .executeTakeFirst();
  return resumed.numUpdatedRows > 0n;
}

/** Ends a run that is still running; a run already ended (e.g. cancelled) keeps its status. */
export async function finishRun(
  store: Store,
  runId: string,
  status: Exclude<RunStatus, "running">,
  failure?: string,
): Promise<boolean> {
  const result = await store
    .updateTable("evaluation_runs")
    .set({ status, finished_at: new Date().toISOString(), failure: failure ?? null })
    .where("id", "=", runId)
    .where("status", "=", "running")
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Puts a run that has ended back to running with its failed items (no answer: busy, timeout...) forgotten, so its
 * runner asks them again and keeps every answered item; returns how many items were forgotten. Nothing changes for
 * a run still running or with no failed item.
 */
export async function reopenFailedItems(store: Store, runId: string, nowMs: number = Date.now()): Promise<number> {
  return store.transaction().execute(async (trx) => {
    const run = await trx.selectFrom("evaluation_runs").select("status").where("id", "=", runId).executeTakeFirst();
    if (!run || run.status === "running") return 0;
    const forgotten = await trx
      .deleteFrom("evaluation_results")
      .where("run_id", "=", runId)
      .where("error_kind", "is not", null)
      .executeTakeFirst();
    const count = Number(forgotten.numDeletedRows);
    if (count === 0) return 0;
    const now = new Date(nowMs).toISOString();
    await trx
      .updateTable("evaluation_runs")
      .set({ status: "running", resumed_at: now, finished_at: null, failure: null })
      .where("id", "=", runId)
      .execute();
    return count;
  });
}

export async function runStatus(store: Store, runId: string): Promise<RunStatus | null> {
  const row = await store.selectFrom("evaluation_runs").select("status").where("id", "=", runId).executeTakeFirst();
  return row?.status ?? null;
}

/**
 * Stores one finished item. The primary key (run, slot, position) makes a second write of the same item a
 * no-op, so a finished item is never counted twice; returns whether this write stored it.
 */
export async function recordResult(store: Store, result: ItemResult): Promise<boolean> {
  const inserted = await store
    .insertInto("evaluation_results")
    .values({
      run_id: result.runId,
      slot: result.slot,
      position: result.position,
      item_id: result.itemId,
      option_ids: result.optionIds && JSON.stringify(result.optionIds),
      probabilities: result.probabilities && JSON.stringify(result.probabilities),
      logits: result.logits && JSON.stringify(result.logits),
      chosen: result.chosen,
      latency_ms: result.latencyMs,
      adapter_ms: result.adapterMs,
      attempts: result.attempts,
      error_kind: result.errorKind,
      error_message: result.errorMessage,
      finished_at: result.finishedAt,
    })
    .onConflict((oc) => oc.columns(["run_id", "slot", "position"]).doNothing())
    .executeTakeFirst();
  return (inserted.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** By dataset position, then slot. */
export async function runResults(store: Store, runId: string): Promise<ItemResult[]> {
  const rows = await store
    .selectFrom("evaluation_results")
    .selectAll()
    .where("run_id", "=", runId)
    .orderBy("position")
    .orderBy("slot")
    .execute();
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
export async function progressCounts(
  store: Store,
  run: RunRow,
): Promise<{ slot: number; done: number; doneSinceResume: number }[]> {
  return store
    .selectFrom("evaluation_results")
    .select((eb) => [
      "slot",
      eb.fn.countAll<number>().as("done"),
      eb.fn
        .sum<number>(eb.case().when("finished_at", ">=", run.resumed_at).then(eb.lit(1)).else(eb.lit(0)).end())
        .as("doneSinceResume"),
    ])
    .where("run_id", "=", run.id)
    .groupBy("slot")
    .orderBy("slot")
    .execute();
}

/** Every finished item of a run: its dataset position and when it finished (for the time left). */
export async function finishedItems(store: Store, runId: string): Promise<{ position: number; finishedAt: string }[]> {
  return store
    .selectFrom("evaluation_results")
    .select(["position", "finished_at as finishedAt"])
    .where("run_id", "=", runId)
    .execute();
}

export async function finishedKeys(store: Store, runId: string): Promise<Set<string>> {
  const rows = await store
    .selectFrom("evaluation_results")
    .select(["slot", "position"])
    .where("run_id", "=", runId)
    .execute();
  return new Set(rows.map((row) => `${row.slot}:${row.position}`));
}
