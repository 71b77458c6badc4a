import fs from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { BACKLOG_PUBLISH_MS } from "../../../server/local/async/backlog-metrics.ts";
import type { ControlPlane } from "../../../server/local/control-plane.ts";
import { e2eSettings } from "./e2e-settings.ts";

/**
 * A test-only metric clock for the Playwright stack: real time plus an offset that a spec moves ahead, so the
 * minutes of alarm periods behind scaling in pass in seconds. Requests, adapter starts and the queue keep real time.
 */
export class MetricClock {
  private aheadMs = 0;

  readonly now = (): number => Date.now() + this.aheadMs;

  /**
   * Moves the clock on in backlog-publishing steps, publishing the backlog metrics and evaluating the alarms at each
   * as the local services do on their timers (an alarm needs a datapoint in every period it evaluates).
   */
  async advance(plane: ControlPlane, seconds: number): Promise<number> {
    for (let passed = 0; passed < seconds * 1000; passed += BACKLOG_PUBLISH_MS) {
      this.aheadMs += BACKLOG_PUBLISH_MS;
      plane.backlogMetrics.publish();
      plane.alarms.evaluateAll();
      await new Promise((resolve) => setImmediate(resolve));
    }
    return this.aheadMs;
  }

  /** Back to real time, so specs that follow see invocation metrics and alarms on one clock again. */
  reset(): void {
    this.aheadMs = 0;
  }
}

/** The most one call may move the clock: enough for any alarm of the scale-to-zero policies, and bounded. */
const MAX_ADVANCE_SECONDS = 3600;

/**
 * `POST /advance?seconds=N` and `POST /reset` on loopback, answering `{ aheadMs }`; the URL goes to the state
 * directory's metric-clock file for the specs.
 */
export async function startMetricClockControl(clock: MetricClock, plane: ControlPlane): Promise<() => Promise<void>> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const answer = (status: number, body: object) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    request.resume();
    if (request.method !== "POST") return answer(405, { message: "POST only" });
    if (url.pathname === "/reset") {
      clock.reset();
      return answer(200, { aheadMs: 0 });
    }
    const seconds = Number(url.searchParams.get("seconds"));
    if (url.pathname !== "/advance") return answer(404, { message: "POST /advance?seconds=N or /reset" });
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_ADVANCE_SECONDS) {
      return answer(400, { message: `seconds must be a whole number from 1 to ${MAX_ADVANCE_SECONDS}` });
    }
    clock.advance(plane, seconds).then(
      (aheadMs) => answer(200, { aheadMs }),
      (error: unknown) => answer(500, { message: String(error) }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  fs.writeFileSync(e2eSettings().metricClockFile, `http://127.0.0.1:${port}`);
  return () => new Promise((resolve) => server.close(() => resolve()));
}

async function control(path: string): Promise<number> {
  const base = fs.readFileSync(e2eSettings().metricClockFile, "utf8");
  const response = await fetch(`${base}${path}`, { method: "POST", signal: AbortSignal.timeout(60_000) });
  const body = (await response.json()) as { aheadMs?: number; message?: string };
  if (!response.ok) throw new Error(`metric clock ${path}: ${response.status} ${body.message}`);
  return body.aheadMs ?? 0;
}

/** From a spec: moves the web server's metric clock `seconds` ahead; answers how far ahead of real time it is. */
export const advanceMetricClock = (seconds: number) => control(`/advance?seconds=${seconds}`);

/** From a spec: puts the web server's metric clock back on real time. */
export const resetMetricClock = () => control("/reset");
