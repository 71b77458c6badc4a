import type { EndpointLogs } from "@/contract/endpoints/logs.ts";

type LogEvent = EndpointLogs["events"][number];

/**
 * Whether a line records a `GET /ping` health check: the adapter's JSON request line (`"path":"/ping"`) or an
 * access-log line of the llama.cpp DLC's nginx (`"GET /ping HTTP/1.1" 200`). SageMaker pings every instance all the
 * time, so these lines bury the requests an operator looks for.
 */
export function isHealthCheckLine(message: string): boolean {
  const text = message.trim();
  if (text.startsWith("{")) {
    try {
      const line = JSON.parse(text) as { path?: unknown; method?: unknown };
      return line.path === "/ping" && (line.method === undefined || line.method === "GET");
    } catch {
      // Not JSON after all: judged as text below.
    }
  }
  return /\bGET \/ping(?:[?\s]|$)/.test(text);
}

export interface LogLinesView {
  /** Newest first. */
  lines: LogEvent[];
  /** Health-check lines left out (0 when they are shown). */
  hiddenHealthChecks: number;
}

/** The lines the panel shows: newest first, health checks left out unless asked for. */
export function logLinesView(events: readonly LogEvent[], showHealthChecks: boolean): LogLinesView {
  const newestFirst = [...events].sort((a, b) => b.at.localeCompare(a.at));
  if (showHealthChecks) return { lines: newestFirst, hiddenHealthChecks: 0 };
  const lines = newestFirst.filter((event) => !isHealthCheckLine(event.message));
  return { lines, hiddenHealthChecks: newestFirst.length - lines.length };
}
