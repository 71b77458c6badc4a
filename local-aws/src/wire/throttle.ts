/**
 * Optional request-rate limit per service (`LOCAL_AWS_MAX_TPS`), so clients' throttling retries can be exercised
 * locally; unlimited when unset. Windows are whole seconds of `clock`.
 */
export class Throttle {
  private readonly windows = new Map<string, { second: number; count: number }>();

  constructor(
    private readonly maxPerSecond: number | undefined,
    private readonly clock: () => number = Date.now,
  ) {}

  allow(service: string): boolean {
    if (!this.maxPerSecond) return true;
    const second = Math.floor(this.clock() / 1000);
    const window = this.windows.get(service);
    if (!window || window.second !== second) {
      this.windows.set(service, { second, count: 1 });
      return true;
    }
    window.count += 1;
    return window.count <= this.maxPerSecond;
  }
}
