/** One kind of background work a console replica looks for again and again (runs left running, promotions...). */
export interface BackgroundTask {
  name: string;
  everyMs: number;
  /** One round: finds work and takes what no other replica holds. `signal` aborts when the replica stops. */
  round(signal: AbortSignal): Promise<void>;
}

export interface BackgroundWork {
  /** No new rounds; resolves once the rounds in progress have ended. */
  stop(): Promise<void>;
}

/**
 * Runs each task's round now and then every `everyMs` after the previous round ended (rounds never overlap). A round
 * that fails is logged and the next one tries again. Its timers do not hold the process open.
 */
export function startBackgroundWork(tasks: readonly BackgroundTask[]): BackgroundWork {
  const controller = new AbortController();
  const timers = new Set<NodeJS.Timeout>();
  const rounds = new Set<Promise<void>>();
  const schedule = (task: BackgroundTask, delayMs: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      const round = task
        .round(controller.signal)
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          console.error(
            JSON.stringify({ level: "error", msg: "background work failed", task: task.name, error: String(error) }),
          );
        })
        .finally(() => {
          rounds.delete(round);
          if (!controller.signal.aborted) schedule(task, task.everyMs);
        });
      rounds.add(round);
    }, delayMs);
    timer.unref();
    timers.add(timer);
  };
  for (const task of tasks) schedule(task, 0);
  return {
    async stop() {
      controller.abort(new Error("the console is stopping"));
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all(rounds);
    },
  };
}
