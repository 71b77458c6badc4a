import { drain } from "./in-flight.ts";

export interface ShutdownOptions {
  /** NEXT_MANUAL_SIG_HANDLE: whether Next.js left the signals to this handler. */
  manualSignals: boolean;
  /** Stops background work and gives up this replica's leases. */
  stopWork: () => Promise<void>;
  /** How long in-flight API requests may take to finish (ECS gives a task 30 s after SIGTERM by default). */
  drainMs?: number;
  log?: (line: string) => void;
}

/**
 * SIGTERM (ECS stopping a task, a deployment replacing it) and SIGINT: this process answers no new API request
 * (503: the load balancer has stopped sending it any, the browser retries), lets the ones in flight finish, stops
 * its background work and releases its leases, so another replica takes that work over at once instead of after
 * the lease expires; then it exits. Next.js's own handler, which would exit as soon as requests drain with the
 * leases still held, is off when the process was started with NEXT_MANUAL_SIG_HANDLE (npm start and the console
 * image set it); without it both run, and whichever finishes first ends the process.
 */
export function stopGracefullyOnSignals(options: ShutdownOptions): void {
  const process_ = globalThis as { __consoleShutdown?: boolean };
  if (process_.__consoleShutdown) return;
  process_.__consoleShutdown = true;
  const log = options.log ?? ((line: string) => console.log(line));
  if (!options.manualSignals) {
    log(
      JSON.stringify({
        level: "warn",
        msg: "NEXT_MANUAL_SIG_HANDLE is not set: on SIGTERM Next.js may exit before this process releases its leases",
      }),
    );
  }
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log(JSON.stringify({ level: "info", msg: "stopping", signal }));
    const [unfinished] = await Promise.all([
      drain(options.drainMs ?? 20_000),
      options.stopWork().catch((error: unknown) => {
        log(JSON.stringify({ level: "error", msg: "background work did not stop cleanly", error: String(error) }));
      }),
    ]);
    log(JSON.stringify({ level: "info", msg: "stopped", signal, unfinishedRequests: unfinished }));
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
