import { finishRun, unfinishedRunIds } from "./run-store.ts";
import { executeRun, type RunnerDeps } from "./runner.ts";

interface ActiveRun {
  controller: AbortController;
  done: Promise<unknown>;
}

/** Runs this process is working on. On `globalThis` because Next.js bundles route handlers separately. */
function activeRuns(): Map<string, ActiveRun> {
  const store = globalThis as { __evaluationRuns?: Map<string, ActiveRun> };
  store.__evaluationRuns ??= new Map();
  return store.__evaluationRuns;
}

/** Starts working a run in the background unless this process already is. */
export function startRun(deps: RunnerDeps, runId: string): Promise<unknown> {
  const runs = activeRuns();
  const active = runs.get(runId);
  if (active) return active.done;
  const controller = new AbortController();
  const done = executeRun(deps, runId, controller.signal)
    .catch((error) => {
      console.error(JSON.stringify({ level: "error", msg: "evaluation run stopped", runId, error: String(error) }));
    })
    .finally(() => runs.delete(runId));
  runs.set(runId, { controller, done });
  return done;
}

/** Marks a running run cancelled (every process sees it) and stops this process's requests for it at once. */
export async function cancelRun(deps: Pick<RunnerDeps, "store">, runId: string): Promise<boolean> {
  const cancelled = await finishRun(deps.store, runId, "cancelled");
  activeRuns().get(runId)?.controller.abort(new Error("evaluation run cancelled"));
  return cancelled;
}

/** Picks up every run that a stopped or killed console left running. */
export async function resumeUnfinishedRuns(deps: RunnerDeps): Promise<string[]> {
  const ids = await unfinishedRunIds(deps.store);
  for (const id of ids) void startRun(deps, id);
  return ids;
}

/** Stops every run this process is working on (shutdown); each gives up its lease as it stops. */
export async function stopActiveRuns(reason = "the console is stopping"): Promise<void> {
  const runs = [...activeRuns().values()];
  for (const run of runs) run.controller.abort(new Error(reason));
  await Promise.all(runs.map((run) => run.done));
}
