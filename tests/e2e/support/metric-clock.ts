import fs from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { ControlPlane } from "@decision-console/local-aws";
import type { MetricClock } from "@decision-console/local-aws/testing";
import { e2eSettings } from "./e2e-settings.ts";

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
