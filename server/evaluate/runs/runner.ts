import type { RunStatus } from "../../../contract/evaluate/evaluations.ts";
import { type BusyRetryPolicy, defaultBusyRetryPolicy } from "../../invoke/busy-retry.ts";
import type { Db } from "../../store/database.ts";
import { datasetItems, type StoredItem } from "../datasets/dataset-store.ts";
import { batchJobOf } from "./batch-job-store.ts";
import { type BatchRunDeps, workBatchRun } from "./batch-run.ts";
import type { EndpointInvoker } from "./invoker.ts";
import {
  claimRun,
  findRun,
  finishedKeys,
  finishRun,
  heartbeat,
  recordResult,
  runStatus,
  runTargets,
} from "./run-store.ts";
import { scoreItem } from "./score-item.ts";

export interface RunnerDeps {
  db: Db;
  invoke: EndpointInvoker;
  /** The process that owns the run while it works on it (defaults to this one). */
  pid?: number;
  retry?: BusyRetryPolicy;
  /** Runs that target a model are scored by a transform job through these. */
  batch?: BatchRunDeps;
}

const HEARTBEAT_EVERY_MS = 5_000;

/**
 * Works a run to its end (a run that targets a model: `workBatchRun`): every item not yet finished is scored on
 * every target endpoint, `concurrency` at a time per endpoint, and each result is stored the moment it arrives.
 * Safe to call again after a crash or a restart: finished items are skipped, items that were in flight are asked
 * again (on an asynchronous endpoint the invoker collects the request already sent instead). Stops early when the
 * run is cancelled (in the database, so another process can cancel it) or `signal` aborts (shutdown).
 */
export async function executeRun(
  deps: RunnerDeps,
  runId: string,
  signal?: AbortSignal,
): Promise<RunStatus | "not_claimed"> {
  const { db, invoke } = deps;
  const pid = deps.pid ?? process.pid;
  const retry = deps.retry ?? defaultBusyRetryPolicy;
  if (!claimRun(db, runId, pid)) return runStatus(db, runId) ?? "not_claimed";
  const run = findRun(db, runId);
  if (!run) return "not_claimed";
  // A timer, not per result: one item can take longer than the stale limit on a slow endpoint.
  const beat = setInterval(() => heartbeat(db, runId, pid), HEARTBEAT_EVERY_MS);
  try {
    if (batchJobOf(db, runId)) {
      if (!deps.batch) throw new Error("This console process was started without the clients batch evaluations need.");
      await workBatchRun(deps.batch, db, run, signal);
      return runStatus(db, runId) ?? "not_claimed";
    }
    const items = datasetItems(db, run.dataset_id);
    const targets = runTargets(db, runId);
    const finished = finishedKeys(db, runId);
    const stillWanted = () => !signal?.aborted && runStatus(db, runId) === "running";

    const workSlot = async (slot: number, endpointName: string) => {
      const queue: StoredItem[] = items.filter((item) => !finished.has(`${slot}:${item.position}`));
      const worker = async () => {
        for (let next = queue.shift(); next !== undefined && stillWanted(); next = queue.shift()) {
          const item = next;
          let score: Awaited<ReturnType<typeof scoreItem>>;
          try {
            const key = { runId, slot, position: item.position, itemId: item.decision.id };
            score = await scoreItem(invoke, endpointName, item.decision, retry, { item: key, signal });
          } catch (error) {
            if (signal?.aborted) return;
            throw error;
          }
          if (runStatus(db, runId) !== "running") return;
          recordResult(db, {
            runId,
            slot,
            position: item.position,
            itemId: item.decision.id,
            ...score,
            finishedAt: new Date().toISOString(),
          });
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, run.concurrency) }, worker));
    };

    await Promise.all(targets.map((endpointName, slot) => workSlot(slot, endpointName)));
    if (signal?.aborted) return runStatus(db, runId) ?? "not_claimed";
    if (runStatus(db, runId) === "running" && finishedKeys(db, runId).size === items.length * targets.length) {
      finishRun(db, runId, "completed");
    }
  } catch (error) {
    finishRun(db, runId, "failed", (error as Error).message);
  } finally {
    clearInterval(beat);
  }
  return runStatus(db, runId) ?? "not_claimed";
}
