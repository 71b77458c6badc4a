/**
 * An evaluation's time left. Items differ in prompt length (JevBench's by about 10x) and the time an item takes
 * grows with its prompt, so the estimate is the time per prompt character measured since the run was last
 * (re)started, times the characters still to send; a per-item mean would be far off while short items go first.
 */

/** The size of what an item sends: the characters of its decision (state, question and options) as JSON. */
export function promptSize(decision: unknown): number {
  return JSON.stringify(decision)?.length ?? 0;
}

export interface EtaInput {
  /** Each item's prompt size, by dataset position. */
  sizes: ReadonlyMap<number, number>;
  /** How many targets (endpoints) score every item. */
  targets: number;
  /** The items finished so far, each with when it finished. */
  finished: readonly { position: number; finishedAt: string }[];
  /** When the run was last (re)started (ISO). */
  resumedAt: string;
  nowMs: number;
  /** Requests the run keeps in flight per target (its concurrency). */
  concurrency: number;
}

/**
 * Seconds left, or null until the first wave of requests since the run was last (re)started has finished: while
 * `concurrency` requests per target are in flight, the first to finish took the whole elapsed time though the others
 * were scored alongside it, and the time per character read from it alone was about `concurrency` times too long
 * (3 h for a JevBench run of 60 to 75 minutes).
 */
export function etaSeconds({ sizes, targets, finished, resumedAt, nowMs, concurrency }: EtaInput): number | null {
  let total = 0;
  for (const size of sizes.values()) total += size * targets;
  let done = 0;
  let doneSinceResume = 0;
  let finishedSinceResume = 0;
  for (const item of finished) {
    const size = sizes.get(item.position) ?? 0;
    done += size;
    if (item.finishedAt >= resumedAt) {
      doneSinceResume += size;
      finishedSinceResume++;
    }
  }
  const itemsLeft = sizes.size * targets - finished.length;
  const firstWave = Math.min(Math.max(1, concurrency) * targets, finishedSinceResume + itemsLeft);
  if (doneSinceResume <= 0 || finishedSinceResume < firstWave) return null;
  const elapsedMs = Math.max(0, nowMs - Date.parse(resumedAt));
  return ((elapsedMs / doneSinceResume) * Math.max(0, total - done)) / 1000;
}
