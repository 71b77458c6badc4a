/**
 * Progress of a long benchmark step on stderr: `label done/total, elapsed, ETA` (stdout keeps the results).
 * Lines come at most every few seconds, and always for the last item.
 */
export class Progress {
  private readonly started = performance.now();
  private lastReport = 0;
  private done = 0;

  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly everyMs = 5000,
  ) {}

  /** The items, one by one; each counts as done when the loop body that got it has finished. */
  *each<T>(items: Iterable<T>): Generator<T> {
    for (const item of items) {
      yield item;
      this.step();
    }
  }

  step(count = 1): void {
    this.done += count;
    const now = performance.now();
    if (this.done < this.total && now - this.lastReport < this.everyMs) return;
    this.lastReport = now;
    process.stderr.write(`${progressLine(this.label, this.done, this.total, (now - this.started) / 1000)}\n`);
  }
}

export function progressLine(label: string, done: number, total: number, elapsedSeconds: number): string {
  const eta = done > 0 ? (elapsedSeconds * (total - done)) / done : Number.NaN;
  return `${label}: ${done}/${total}, ${formatSeconds(elapsedSeconds)} elapsed, ETA ${Number.isFinite(eta) ? formatSeconds(eta) : "?"}`;
}

function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}
