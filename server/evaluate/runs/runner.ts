import type { RunStatus } from "../../../contract/evaluate/evaluations.ts";
import { type BusyRetryPolicy, defaultBusyRetryPolicy } from "../../invoke/busy-retry.ts";
import type { Store } from "../../store/store.ts";
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
  store: Store;
  invoke: EndpointInvoker;
  /** The process that owns the run while it works on it (defaults to this one). */
  pid?: number;
  retry?: BusyRetryPolicy;
  /** Runs that target a model are scored by a transform job through these. */
  batch?: BatchRunDeps;
}

const HEARTBEAT_EVERY_MS = 5_000;

/** Keeps the run's heartbeat fresh until stopped; a beat that fails is logged, the next one tries again. */
function keepBeating(store: Store, runId: string, pid: number): () => void {
  const timer = setInterval(() => {
    heartbeat(store, runId, pid).catch((error) => {
      console.error(JSON.stringify({ level: "warn", msg: "evaluation heartbeat failed", runId, error: String(error) }));
    });
  }, HEARTBEAT_EVERY_MS);
  return () => clearInterval(timer);
}

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
  const { store, invoke } = deps;
  const pid = deps.pid ?? process.pid;
  const retry = deps.retry ?? defaultBusyRetryPolicy;
  const statusNow = async () => (await runStatus(store, runId)) ?? "not_claimed";
  if (!(await claimRun(store, runId, pid))) return statusNow();
  const run = await findRun(store, runId);
  if (!run) return "not_claimed";
  // A timer, not per result: one item can take longer than the stale limit on a slow endpoint.
  const stopBeating = keepBeating(store, runId, pid);
  try {
    if (await batchJobOf(store, runId)) {
      if (!deps.batch) throw new Error("This console process was started without the clients batch evaluations need.");
      await workBatchRun(deps.batch, store, run, signal);
      return statusNow();
    }
    const items = await datasetItems(store, run.dataset_id);
    const targets = await runTargets(store, runId);
    const finished = await finishedKeys(store, runId);
    const running = async () => (await runStatus(store, runId)) === "running";
    const stillWanted = async () => !signal?.aborted && (await running());

    const workSlot = async (slot: number, endpointName: string) => {
      const queue: StoredItem[] = items.filter((item) => !finished.has(`${slot}:${item.position}`));
      const worker = async () => {
        for (let next = queue.shift(); next !== undefined && (await stillWanted()); next = queue.shift()) {
          const item = next;
          let score: Awaited<ReturnType<typeof scoreItem>>;
          try {
            const key = { runId, slot, position: item.position, itemId: item.decision.id };
            score = await scoreItem(invoke, endpointName, item.decision, retry, { item: key, signal });
          } catch (error) {
            if (signal?.aborted) return;
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
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, run.concurrency) }, worker));
    };

    await Promise.all(targets.map((endpointName, slot) => workSlot(slot, endpointName)));
    if (signal?.aborted) return statusNow();
    if ((await running()) && (await finishedKeys(store, runId)).size === items.length * targets.length) {
      await finishRun(store, runId, "completed");
    }
  } catch (error) {
    await finishRun(store, runId, "failed", (error as Error).message);
  } finally {
    stopBeating();
  }
  return statusNow();
}
