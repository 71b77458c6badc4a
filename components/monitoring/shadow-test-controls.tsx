"use client";

import { useState } from "react";
import { ErrorAlert } from "../api/error-text.tsx";
import { useEndpointMetrics } from "../endpoints/endpoint-activity-queries.ts";
import { useEndpoint } from "../endpoints/endpoint-queries.ts";
import { latencyAlarmDefault, STANDARD_LATENCY_ALARM_MS } from "../endpoints/latency-alarm-default.ts";
import { Button } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { SelectField, TextField } from "../ui/field.tsx";
import { useEndShadowTest, usePromoteShadow, useStartShadowTest } from "./monitoring-queries.ts";
import { type PromotionChoice, promotionChoices } from "./promotion-choices.ts";
import { PromotionState } from "./promotion-state.tsx";

/** A number typed in a field, within [min, max], or the message the field shows. */
function numberIn(text: string, min: number, max: number, what: string): { value: number } | { error: string } {
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value) || value < min || value > max) {
    return { error: `${what} must be a number from ${min} to ${max}.` };
  }
  return { value };
}

/** Starts a shadow test: the serving model at another temperature, on a share of copied traffic. */
export function StartShadowTest({ name }: { name: string }) {
  const [temperature, setTemperature] = useState("0.7");
  const [share, setShare] = useState("100");
  const start = useStartShadowTest(name);
  const typedTemperature = numberIn(temperature, 0.01, 10, "Temperature");
  const typedShare = numberIn(share, 1, 100, "The share");
  const ready = "value" in typedTemperature && "value" in typedShare && Number.isInteger(typedShare.value);
  return (
    <Card title="Shadow test">
      <div className="mb-3">
        <PromotionState name={name} />
      </div>
      <p className="mb-3 text-sm text-slate-700">
        Run a candidate beside the serving model: it reads a copy of live requests, its answers are captured and
        compared here, and callers only ever get production&apos;s answer.
      </p>
      <form
        className="flex flex-wrap items-end gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!ready) return;
          start.mutate({
            change: { temperature: "value" in typedTemperature ? typedTemperature.value : undefined },
            samplingPercentage: "value" in typedShare ? typedShare.value : 100,
          });
        }}
      >
        <div className="w-48">
          <TextField
            label="Candidate temperature"
            inputMode="decimal"
            value={temperature}
            error={"error" in typedTemperature ? typedTemperature.error : undefined}
            onChange={(event) => setTemperature(event.target.value)}
          />
        </div>
        <div className="w-48">
          <TextField
            label="Requests copied (%)"
            inputMode="numeric"
            value={share}
            error={
              "error" in typedShare
                ? typedShare.error
                : Number.isInteger(typedShare.value)
                  ? undefined
                  : "A whole percent."
            }
            onChange={(event) => setShare(event.target.value)}
          />
        </div>
        <Button type="submit" size="sm" disabled={!ready || start.isPending}>
          {start.isPending ? "Starting…" : "Start shadow test"}
        </Button>
      </form>
      {start.error && <ErrorAlert title="The shadow test did not start" error={start.error} />}
      {start.data && (
        <p className="mt-2 text-sm text-slate-700" role="status">
          Updating to {start.data.endpointConfigName}: {start.data.shadowVariant} gets {start.data.samplingPercentage}%
          of requests once the endpoint is InService.
        </p>
      )}
    </Card>
  );
}

/**
 * Promote (the test ends, then the candidate goes out by the chosen update) or end the test. Only the ways SageMaker
 * accepts for the endpoint's instance count are offered, the first by default.
 */
export function ShadowTestActions({ name }: { name: string }) {
  const endpoint = useEndpoint(name);
  const latency = latencyAlarmDefault(useEndpointMetrics(name, { minutes: 60, periodSeconds: 300 }).data);
  const { choices, canaryProblem } = promotionChoices(endpoint.data?.instanceCount ?? 1, latency?.thresholdMs);
  const [picked, setPicked] = useState<string | null>(null);
  const choice = choices.find((candidate) => candidate.id === picked) ?? (choices[0] as PromotionChoice);
  const promote = usePromoteShadow(name);
  const end = useEndShadowTest(name);
  const busy = promote.isPending || end.isPending || !endpoint.data;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-end gap-2">
        <div className="w-72">
          <SelectField label="Promote by" value={choice.id} onChange={(event) => setPicked(event.target.value)}>
            {choices.map((option) => (
              <option key={option.id} value={option.id}>
                {option.label}
              </option>
            ))}
          </SelectField>
        </div>
        <Button size="sm" disabled={busy} onClick={() => promote.mutate(choice.request)}>
          Promote the shadow
        </Button>
        <Button size="sm" variant="secondary" disabled={busy} onClick={() => end.mutate(undefined)}>
          End the test
        </Button>
      </div>
      <p className="text-xs text-slate-700" data-testid="promotion-latency-alarm">
        {latency
          ? `The latency alarm is twice the last hour's highest 5-minute ModelLatency average (${Math.round(latency.highestMs)} ms), at least ${STANDARD_LATENCY_ALARM_MS} ms, so it is not crossed before the candidate serves.`
          : `No recent ModelLatency to go by: the standard ${STANDARD_LATENCY_ALARM_MS} ms latency alarm.`}
      </p>
      {canaryProblem && (
        <p className="text-xs text-slate-700">
          No canary on this endpoint: {canaryProblem} Add an instance (Update, instance count 2) to promote by canary.
        </p>
      )}
      {promote.error && <ErrorAlert title="Not promoted" error={promote.error} />}
      {end.error && <ErrorAlert title="The test did not end" error={end.error} />}
      {promote.data && (
        <p className="text-sm text-slate-700" role="status">
          The test is ending; the {promote.data.followedBy.strategy} update to the candidate starts once the endpoint is
          InService.
        </p>
      )}
      {end.data && (
        <p className="text-sm text-slate-700" role="status">
          Going back to {end.data.endpointConfigName}.
        </p>
      )}
    </div>
  );
}
