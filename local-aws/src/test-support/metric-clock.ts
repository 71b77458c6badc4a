import { BACKLOG_PUBLISH_MS } from "../async/backlog-metrics.ts";
import type { ControlPlane } from "../control-plane.ts";

/**
 * A test-only metric clock: real time plus an offset a test moves ahead, so the minutes of alarm periods behind
 * scaling pass in seconds; or held still past the period a test's metrics fell in. Requests, adapter starts and the
 * queue keep real time.
 */
export class MetricClock {
  private aheadMs = 0;
  private heldAt: number | null = null;

  readonly now = (): number => this.heldAt ?? Date.now() + this.aheadMs;

  /**
   * Holds the clock 1 s past the end of the `periodSeconds` period (aligned to the epoch, as alarm periods are) that
   * `at` falls in, so an alarm evaluates that period however long the test takes to look: a clock moved ahead of
   * real time can cross a period's end between the metrics and the look, and the period evaluated is then empty.
   */
  holdPastPeriodOf(at: number, periodSeconds: number): void {
    const period = periodSeconds * 1000;
    this.heldAt = (Math.floor(at / period) + 1) * period + 1000;
  }

  /**
   * One backlog-publishing step on: the backlog metrics published and the alarms evaluated, as the local services
   * do on their timers (an alarm needs a datapoint in every period it evaluates).
   */
  async step(plane: Pick<ControlPlane, "backlogMetrics" | "alarms">): Promise<void> {
    this.aheadMs += BACKLOG_PUBLISH_MS;
    plane.backlogMetrics.publish();
    plane.alarms.evaluateAll();
    await new Promise((resolve) => setImmediate(resolve));
  }

  /** `seconds` on, a step at a time; answers how far ahead of real time the clock is. */
  async advance(plane: Pick<ControlPlane, "backlogMetrics" | "alarms">, seconds: number): Promise<number> {
    for (let passed = 0; passed < seconds * 1000; passed += BACKLOG_PUBLISH_MS) await this.step(plane);
    return this.aheadMs;
  }

  /** Back to real time. */
  reset(): void {
    this.aheadMs = 0;
    this.heldAt = null;
  }
}
