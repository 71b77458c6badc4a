"use client";

import { useState } from "react";
import type { DriftKind } from "@/contract/endpoints/drift.ts";
import type { DecisionKindSummary } from "@/contract/endpoints/monitoring.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { Button } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { TextField } from "../ui/field.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { useEndpointDrift, useSetDrift } from "./monitoring-queries.ts";

const distance = (value: number | null) => (value === null ? "–" : value.toFixed(3));

const stateClasses: Record<string, string> = {
  OK: "bg-emerald-100 text-emerald-900",
  ALARM: "bg-red-100 text-red-900",
  INSUFFICIENT_DATA: "bg-slate-100 text-slate-800",
};

/** A threshold as typed: a Jensen–Shannon distance strictly between 0 and 1, or what is wrong with it. */
function readThreshold(text: string): { value: number } | { error: string } {
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value) || value <= 0 || value >= 1) {
    return { error: "A distance between 0 and 1." };
  }
  return { value };
}

function AlarmForm({ name, kind }: { name: string; kind: DriftKind }) {
  const current = kind.alarms[0]?.threshold;
  const suggested = Math.max(kind.current?.noise.optionMix ?? 0, kind.current?.noise.confidence ?? 0);
  const [text, setText] = useState(String(current ?? (suggested > 0 ? suggested.toFixed(2) : "0.2")));
  const set = useSetDrift(name);
  const typed = readThreshold(text);
  return (
    <form
      className="mt-3 flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        if ("value" in typed) set.mutate({ kind: kind.kind, alarmThreshold: typed.value });
      }}
    >
      <div className="w-48">
        <TextField
          label="Alarm above (distance)"
          inputMode="decimal"
          value={text}
          error={"error" in typed ? typed.error : undefined}
          onChange={(event) => setText(event.target.value)}
        />
      </div>
      <Button type="submit" size="sm" variant="secondary" disabled={!("value" in typed) || set.isPending}>
        {kind.alarms.length > 0 ? "Update the alarm" : "Set the alarm"}
      </Button>
      {set.error && <ErrorAlert title="The alarm was not set" error={set.error} />}
    </form>
  );
}

function BaselinedKind({ name, kind }: { name: string; kind: DriftKind }) {
  const { current } = kind;
  return (
    <section aria-label={`Drift of ${kind.question}`} data-kind={kind.kind} className="border-t pt-3 first:border-0">
      <h3 className="text-sm font-semibold">{kind.question || "(no question)"}</h3>
      <p className="text-xs text-slate-700">
        {kind.baseline ? (
          <>
            Baseline: {kind.baseline.source} ({kind.baseline.decisions} decisions), set by {kind.baseline.setBy}{" "}
            <Timestamp at={kind.baseline.setAt} />.
          </>
        ) : (
          "No baseline yet: nothing is published for this kind, so its alarms stay INSUFFICIENT_DATA."
        )}
      </p>
      <dl className="mt-2 grid grid-cols-2 gap-3 text-sm sm:grid-cols-4" data-testid="drift-scores">
        <div>
          <dt className="text-slate-700">Option mix drift</dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid="option-mix-drift">
            {distance(current?.optionMix ?? null)}
          </dd>
          <dd className="text-xs text-slate-700">noise {distance(current?.noise.optionMix ?? null)}</dd>
        </div>
        <div>
          <dt className="text-slate-700">Confidence drift</dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid="confidence-drift">
            {distance(current?.confidence ?? null)}
          </dd>
          <dd className="text-xs text-slate-700">noise {distance(current?.noise.confidence ?? null)}</dd>
        </div>
        <div>
          <dt className="text-slate-700">Decisions, last hour</dt>
          <dd className="text-lg font-semibold tabular-nums">{current?.decisions ?? "–"}</dd>
        </div>
        <div>
          <dt className="text-slate-700">Alarms</dt>
          {kind.alarms.length === 0 && <dd className="text-slate-700">none set</dd>}
          {kind.alarms.map((alarm) => (
            <dd key={alarm.name} title={alarm.stateReason} data-testid="drift-alarm-state">
              <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${stateClasses[alarm.state] ?? ""}`}>
                {alarm.state}
              </span>{" "}
              <span className="text-xs">
                {alarm.metricName} &gt; {alarm.threshold}
              </span>
            </dd>
          ))}
        </div>
      </dl>
      <AlarmForm name={name} kind={kind} />
    </section>
  );
}

/**
 * Drift against a baseline per decision kind: the Jensen–Shannon distance of the chosen-option mix and of the top
 * probability over the last hour, the sampling noise at these counts, and the CloudWatch alarms with their states.
 */
export function DriftCard({
  name,
  kinds,
  window,
}: {
  name: string;
  kinds: DecisionKindSummary[];
  window: { from: string; to: string };
}) {
  const drift = useEndpointDrift(name);
  const set = useSetDrift(name);
  const baselined = new Set(drift.data?.kinds.filter((kind) => kind.baseline).map((kind) => kind.kind));
  return (
    <Card title="Drift">
      <p className="mb-3 text-sm text-slate-700">
        Each kind&apos;s last hour against its baseline: Jensen–Shannon distance (0 the same, 1 nothing in common) of
        the chosen options and of the top probability, published to CloudWatch every 5 minutes
        {drift.data ? ` (${drift.data.namespace})` : ""}. &ldquo;Noise&rdquo; is what two samples of one distribution
        reach by chance once in a thousand at these counts.
      </p>
      {drift.error && <ErrorAlert title="Drift is not available" error={drift.error} />}
      <div className="flex flex-col gap-3">
        {drift.data?.kinds.map((kind) => (
          <BaselinedKind key={kind.kind} name={name} kind={kind} />
        ))}
      </div>
      {kinds.length > 0 && (
        <ul className="mt-3 flex flex-col gap-2 text-sm">
          {kinds.map((kind) => (
            <li key={kind.kind} className="flex flex-wrap items-center gap-2">
              <span>{kind.question || "(no question)"}</span>
              <Button
                size="sm"
                variant="secondary"
                disabled={set.isPending || kind.decisions === 0}
                onClick={() =>
                  set.mutate({ kind: kind.kind, baseline: { source: "window", from: window.from, to: window.to } })
                }
              >
                {baselined.has(kind.kind) ? "Reset baseline to this window" : "Set baseline from this window"}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {set.error && <ErrorAlert title="The baseline was not set" error={set.error} />}
    </Card>
  );
}
