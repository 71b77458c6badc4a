"use client";

import { useState } from "react";
import { ErrorAlert } from "../api/error-text.tsx";
import { Button } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { SelectField, TextField } from "../ui/field.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { activityRefreshMs, useEndpointLogs } from "./endpoint-activity-queries.ts";
import { logLinesView } from "./log-lines.ts";

const windows = [
  { minutes: 15, label: "Last 15 minutes" },
  { minutes: 60, label: "Last hour" },
  { minutes: 360, label: "Last 6 hours" },
  { minutes: 1440, label: "Last 24 hours" },
  { minutes: 10080, label: "Last 7 days" },
];

/**
 * The endpoint's container output from CloudWatch Logs, searched with a filter pattern in a time window, tailed
 * every few seconds, newest line first; SageMaker's `/ping` health checks are left out unless asked for.
 */
export function EndpointLogsPanel({ name }: { name: string }) {
  const [minutes, setMinutes] = useState(60);
  const [draft, setDraft] = useState("");
  const [pattern, setPattern] = useState("");
  const [showHealthChecks, setShowHealthChecks] = useState(false);
  const { data, error, isPending, isFetching } = useEndpointLogs(name, minutes, pattern);
  const view = data ? logLinesView(data.events, showHealthChecks) : null;
  return (
    <Card title="Logs (CloudWatch)">
      <form
        className="mb-3 grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          setPattern(draft.trim());
        }}
      >
        <TextField
          label="Filter pattern"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          placeholder='ERROR, "status":500, ?WARN ?ERROR'
          hint="CloudWatch Logs filter pattern syntax; empty shows every line."
          className="font-mono"
        />
        <SelectField label="Time window" value={minutes} onChange={(e) => setMinutes(Number(e.target.value))}>
          {windows.map((w) => (
            <option key={w.minutes} value={w.minutes}>
              {w.label}
            </option>
          ))}
        </SelectField>
        <Button type="submit" disabled={isFetching}>
          {isFetching ? "Searching…" : "Search"}
        </Button>
      </form>
      {error && <ErrorAlert title="Logs unavailable" error={error} />}
      {isPending && <p className="text-sm text-slate-700">Loading logs…</p>}
      <label className="mb-2 flex items-center gap-2 text-sm text-slate-800">
        <input
          type="checkbox"
          checked={showHealthChecks}
          onChange={(event) => setShowHealthChecks(event.target.checked)}
        />
        Show /ping health checks
      </label>
      {data && view && (
        <>
          <p className="mb-2 text-xs text-slate-700">
            {data.logGroupName}, <Timestamp at={data.from} /> to <Timestamp at={data.to} />
            {data.filterPattern ? `, matching ${data.filterPattern}` : ""}, newest first, refreshed every{" "}
            {activityRefreshMs / 1000} s.{" "}
            {view.hiddenHealthChecks > 0 && `${view.hiddenHealthChecks} /ping health-check lines hidden. `}
            {!data.logGroupExists && "The container has written nothing yet."}
            {data.truncated &&
              `Showing the most recent ${data.events.length} lines; narrow the window or the pattern for older ones.`}
          </p>
          {data.logGroupExists && view.lines.length === 0 && (
            <p className="text-sm text-slate-700">No lines in this window match.</p>
          )}
          {view.lines.length > 0 && (
            <div
              role="log"
              aria-label={`Log lines of ${name}`}
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable log must be reachable by keyboard
              tabIndex={0}
              className="max-h-96 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-950 p-3 font-mono text-xs text-slate-100"
            >
              {view.lines.map((event) => (
                <div key={event.id}>
                  <span className="text-slate-400">
                    <Timestamp at={event.at} /> {event.stream}
                  </span>{" "}
                  {event.message}
                </div>
              ))}
            </div>
          )}
        </>
      )}
    </Card>
  );
}
