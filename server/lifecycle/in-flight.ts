/**
 * The API requests this process is answering, so that shutting down can wait for them (server/lifecycle/shutdown.ts),
 * and whether it is shutting down, so that it takes no new ones. On `globalThis`: Next.js bundles routes apart.
 */
interface InFlight {
  count: number;
  draining: boolean;
  idle: (() => void)[];
}

function inFlight(): InFlight {
  const process_ = globalThis as { __consoleInFlight?: InFlight };
  process_.__consoleInFlight ??= { count: 0, draining: false, idle: [] };
  return process_.__consoleInFlight;
}

export function isDraining(): boolean {
  return inFlight().draining;
}

/** Runs one request's handler, counted while it runs. */
export async function answering<T>(handle: () => Promise<T>): Promise<T> {
  const state = inFlight();
  state.count++;
  try {
    return await handle();
  } finally {
    state.count--;
    if (state.count === 0) for (const resolve of state.idle.splice(0)) resolve();
  }
}

/** Stops taking requests; resolves once none is in flight, or after `timeoutMs` with how many still were. */
export async function drain(timeoutMs: number): Promise<number> {
  const state = inFlight();
  state.draining = true;
  if (state.count === 0) return 0;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    new Promise<void>((resolve) => state.idle.push(resolve)),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  return state.count;
}
