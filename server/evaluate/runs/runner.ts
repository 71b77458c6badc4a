import type { RunStatus } from "../../../contract/evaluate/evaluations.ts";
import { type BusyRetryPolicy, defaultBusyRetryPolicy } from "../../invoke/busy-retry.ts";
import { holdLease, type LeaseTiming } from "../../store/leases.ts";
import type { Store } from "../../store/store.ts";
import { datasetItems, type StoredItem } from "../datasets/dataset-store.ts";
import { batchJobOf } from "./batch-job-store.ts";
import { type BatchRunDeps, workBatchRun } from "./batch-run.ts";
import type { EndpointInvoker } from "./invoker.ts";
import {
  findRun,
  finishedKeys,
  finishRun,
  markResumed,
  recordResult,
  runLeaseName,
  runStatus,
  runTargets,
} from "./run-store.ts";
import { scoreItem } from "./score-item.ts";

export interface RunnerDeps {
  store: Store;
  invoke: EndpointInvoker;
  /** How long this process's claim on a run lasts unrenewed (CONSOLE_LEASE_SECONDS); default 30 s. */
  lease?: LeaseTiming;
  /** Who holds the lease (default: this process, replicaId()). */
  holder?: string;
  retry?: BusyRetryPolicy;
  /** Runs that target a model are scored by a transform job through these. */
  batch?: BatchRunDeps;
}

export const DEFAULT_RUN_LEASE: LeaseTiming = { ttlMs: 30_000 };

/**
 * Works a run to its end (a run that targets a model: `workBatchRun`): every item not yet finished is scored on
 * every target endpoint, `concurrency` at a time per endpoint, and each result is stored the moment it arrives.
 * Safe to call again after a crash or a restart: finished items are skipped, items that were in flight are asked
 * again (on an asynchronous endpoint the invoker collects the request already sent instead). Stops early when the
 * run is cancelled (in the database, so another process can cancel it) or `signal` aborts (shutdown).
 * One console replica works a run at a time: the one holding its lease. Another replica's call returns at once;
 * if this one loses the lease (it could not renew it in time, and another took the run over) it stops asking.
 */
export async function executeRun(
  deps: RunnerDeps,
  runId: string,
  signal?: AbortSignal,
): Promise<RunStatus | "not_claimed"> {
  const { store, invoke } = deps;
  const retry = deps.retry ?? defaultBusyRetryPolicy;
  const statusNow = async () => (await runStatus(store, runId)) ?? "not_claimed";
  const lease = await holdLease(store, runLeaseName(runId), deps.lease ?? DEFAULT_RUN_LEASE, deps.holder);
  if (!lease) return statusNow();
  const stop = signal ? AbortSignal.any([signal, lease.lost]) : lease.lost;
  const run = (await markResumed(store, runId)) ? await findRun(store, runId) : null;
  try {
    if (!run) return statusNow();
    if (await batchJobOf(store, runId)) {
      if (!deps.batch) throw new Error("This console process was started without the clients batch evaluations need.");
      await workBatchRun(deps.batch, store, run, stop);
      return statusNow();
    }
    const items = await datasetItems(store, run.dataset_id);
    const targets = await runTargets(store, runId);
    const finished = await finishedKeys(store, runId);
    const running = async () => (await runStatus(store, runId)) === "running";
    const stillWanted = async () => !stop.aborted && (await running());

    const workSlot = async (slot: number, endpointName: string) => {
      const queue: StoredItem[] = items.filter((item) => !finished.has(`${slot}:${item.position}`));
      // The run's status is read once per item, after it is scored: a run cancelled meanwhile stores nothing more,
      // and one still running is still wanted for the next item.
      const worker = async () => {
        let wanted = await stillWanted();
        for (let next = queue.shift(); next !== undefined && wanted; next = queue.shift()) {
          const item = next;
          let score: Awaited<ReturnType<typeof scoreItem>>;
          try {
            const key = { runId, slot, position: item.position, itemId: item.decision.id };
            score = await scoreItem(invoke, endpointName, item.decision, retry, { item: key, signal: stop });
          } catch (error) {
            if (stop.aborted) return;
            throw error;
          }
          if (!(await running())) return;
          await recordResult(store, {
            runId,
            slot,
            position: item.position,
            itemId: item.decision.id,
            ...score,
            finishedAt: new Date().toISOString(),
          });
          wanted = !stop.aborted;
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, run.concurrency) }, worker));
    };

    await Promise.all(targets.map((endpointName, slot) => workSlot(slot, endpointName)));
    if (stop.aborted) return statusNow();
    if ((await running()) && (await finishedKeys(store, runId)).size === items.length * targets.length) {
      await finishRun(store, runId, "completed");
    }
  } catch (error) {
    // A replica that lost its lease leaves the run to the one that took it over.
    if (!stop.aborted) await finishRun(store, runId, "failed", (error as Error).message);
  } finally {
    await lease.release();
  }
  return statusNow();
}
