/** Keyed background work this process is doing: at most one piece per key at a time. */
export interface InProcessWork {
  /** Starts `work` for `key` unless this process is already at it; settles when that work has. */
  takeUp(key: string, work: () => Promise<void>): Promise<void>;
  /** Waits for everything taken up (shutdown aborts it through its own signal first). */
  settled(): Promise<void>;
}

/**
 * The work of one kind (`kind` names it) this process is doing, kept on `globalThis` because Next.js bundles route
 * handlers apart: the request that started a piece and a later background round see the same one. A piece that
 * fails is handed to `failed` (to log), never thrown.
 */
export function inProcessWork(kind: string, failed: (key: string, error: unknown) => void): InProcessWork {
  const process_ = globalThis as { __consoleInProcessWork?: Map<string, Map<string, Promise<void>>> };
  process_.__consoleInProcessWork ??= new Map();
  let active = process_.__consoleInProcessWork.get(kind);
  if (!active) {
    active = new Map();
    process_.__consoleInProcessWork.set(kind, active);
  }
  const pieces = active;
  return {
    takeUp(key, work) {
      const already = pieces.get(key);
      if (already) return already;
      const done = work()
        .catch((error: unknown) => failed(key, error))
        .finally(() => pieces.delete(key));
      pieces.set(key, done);
      return done;
    },
    async settled() {
      await Promise.all(pieces.values());
    },
  };
}
