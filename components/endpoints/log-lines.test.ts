import { describe, expect, it } from "vitest";
import { isHealthCheckLine, logLinesView } from "./log-lines.ts";

const adapterPing = JSON.stringify({
  time: "t",
  request_id: "r",
  method: "GET",
  path: "/ping",
  route: "ping",
  status: 200,
});
const adapterInvocation = JSON.stringify({ method: "POST", path: "/invocations", route: "decision", status: 200 });
const nginxPing = '10.0.0.1 - - [01/Dec/2026:10:10:00 +0000] "GET /ping HTTP/1.1" 200 2 "-" "AHC/2.0"';

function event(id: string, at: string, message: string) {
  return { id, at, stream: "AllTraffic/i-1", message };
}

describe("the endpoint's log lines", () => {
  it("recognises health checks of the adapter and of the DLC's access log, and nothing else", () => {
    expect(isHealthCheckLine(adapterPing)).toBe(true);
    expect(isHealthCheckLine(nginxPing)).toBe(true);
    expect(isHealthCheckLine(adapterInvocation)).toBe(false);
    expect(isHealthCheckLine('"POST /invocations HTTP/1.1" 200')).toBe(false);
    expect(isHealthCheckLine("model loaded; /pingable")).toBe(false);
  });

  it("shows the newest line first and leaves /ping lines out unless asked for", () => {
    const events = [
      event("1", "2026-12-01T21:38:00.000Z", adapterInvocation),
      event("2", "2026-12-01T22:10:00.000Z", adapterPing),
      event("3", "2026-12-01T22:10:05.000Z", adapterInvocation),
    ];
    const hidden = logLinesView(events, false);
    expect(hidden.lines.map((line) => line.id)).toEqual(["3", "1"]);
    expect(hidden.hiddenHealthChecks).toBe(1);
    const shown = logLinesView(events, true);
    expect(shown.lines.map((line) => line.id)).toEqual(["3", "2", "1"]);
    expect(shown.hiddenHealthChecks).toBe(0);
  });
});
