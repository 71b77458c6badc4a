"use client";

import { useState } from "react";
import type { Autoscaling } from "@/contract/endpoints/autoscaling.ts";
import type { EndpointStatus } from "@/contract/endpoints/status.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { Alert } from "../ui/alert.tsx";
import { Button } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { TextField } from "../ui/field.tsx";
import { FormActions } from "../ui/form-actions.tsx";
import { useUpdateAutoscaling } from "./endpoint-queries.ts";

export function AutoscalingCard({
  name,
  status,
  autoscaling,
  asynchronous,
  instanceCount,
}: {
  name: string;
  status: EndpointStatus;
  autoscaling: Autoscaling | null;
  /** Asynchronous endpoints may scale to zero when idle. */
  asynchronous: boolean;
  instanceCount: number | null;
}) {
  const [editing, setEditing] = useState(false);
  return (
    <Card
      title="Autoscaling"
      actions={
        !editing && (
          <Button variant="secondary" size="sm" disabled={status !== "InService"} onClick={() => setEditing(true)}>
            {autoscaling ? "Edit autoscaling" : "Configure autoscaling"}
          </Button>
        )
      }
    >
      {editing ? (
        <AutoscalingForm
          name={name}
          initial={autoscaling}
          asynchronous={asynchronous}
          onDone={() => setEditing(false)}
        />
      ) : autoscaling ? (
        <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-700">Instances now</dt>
          <dd data-testid="autoscaling-instances">{instanceCount ?? "unknown"}</dd>
          <dt className="text-slate-700">Instances</dt>
          <dd>
            {autoscaling.minCapacity} to {autoscaling.maxCapacity}
          </dd>
          {autoscaling.scaleToZero ? (
            <>
              <dt className="text-slate-700">Scale to zero when idle</dt>
              <dd>on, target {autoscaling.targetBacklogPerInstance} queued requests per instance</dd>
            </>
          ) : (
            <>
              <dt className="text-slate-700">Target invocations per instance per minute</dt>
              <dd>{autoscaling.targetInvocationsPerInstance ?? "no policy"}</dd>
            </>
          )}
          <dt className="text-slate-700">Scale-in</dt>
          <dd>{autoscaling.scaleInDisabled ? "disabled (protected)" : "enabled"}</dd>
          <dt className="text-slate-700">Cooldowns (in / out)</dt>
          <dd>
            {autoscaling.scaleInCooldownSeconds ?? "default"} s / {autoscaling.scaleOutCooldownSeconds ?? "default"} s
          </dd>
        </dl>
      ) : null}
      {!editing && autoscaling?.scaleToZero && (
        <Alert tone="info" title={instanceCount === 0 ? "Scaled to zero" : undefined}>
          {instanceCount === 0 ? "No instance runs now (no instance cost). " : ""}A request while the endpoint is scaled
          to zero waits in the queue for a cold start first: the HasBacklogWithoutCapacity alarm (two one-minute
          periods) starts one instance, which then loads the model.
        </Alert>
      )}
      {!editing && !autoscaling && (
        <p className="text-sm text-slate-700">Not configured: the instance count stays where it is set.</p>
      )}
    </Card>
  );
}

function AutoscalingForm({
  name,
  initial,
  asynchronous,
  onDone,
}: {
  name: string;
  initial: Autoscaling | null;
  asynchronous: boolean;
  onDone: () => void;
}) {
  const [scaleToZero, setScaleToZero] = useState(initial?.scaleToZero ?? false);
  const [min, setMin] = useState(String(initial?.minCapacity || 1));
  const [max, setMax] = useState(String(initial?.maxCapacity ?? 2));
  const [target, setTarget] = useState(String(initial?.targetInvocationsPerInstance ?? 60));
  const [backlog, setBacklog] = useState(String(initial?.targetBacklogPerInstance ?? 5));
  const [scaleInDisabled, setScaleInDisabled] = useState(initial?.scaleInDisabled ?? false);
  const [scaleIn, setScaleIn] = useState(String(initial?.scaleInCooldownSeconds ?? 300));
  const [scaleOut, setScaleOut] = useState(String(initial?.scaleOutCooldownSeconds ?? 60));
  const update = useUpdateAutoscaling(name);
  const minCapacity = scaleToZero ? 0 : Number(min);
  const invalid = minCapacity > Number(max) ? "The minimum must not exceed the maximum." : undefined;
  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (invalid) return;
        update.mutate(
          {
            minCapacity,
            maxCapacity: Number(max),
            ...(scaleToZero
              ? { scaleToZero: true, targetBacklogPerInstance: Number(backlog) }
              : { targetInvocationsPerInstance: Number(target), scaleInDisabled }),
            scaleInCooldownSeconds: Number(scaleIn),
            scaleOutCooldownSeconds: Number(scaleOut),
          },
          { onSuccess: onDone },
        );
      }}
    >
      {asynchronous && (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={scaleToZero} onChange={(e) => setScaleToZero(e.target.checked)} />
          Scale to zero when idle (0 instances while the queue is empty; a request then waits for a cold start)
        </label>
      )}
      <div className="grid grid-cols-2 gap-3">
        {scaleToZero ? (
          <TextField label="Minimum instances" type="number" value="0" disabled readOnly />
        ) : (
          numberField("Minimum instances", min, setMin, 1)
        )}
        {numberField("Maximum instances", max, setMax, 1, invalid)}
        {scaleToZero
          ? numberField("Target queued requests per instance", backlog, setBacklog, 1)
          : numberField("Target invocations per instance per minute", target, setTarget, 1)}
        {numberField("Scale-in cooldown (s)", scaleIn, setScaleIn, 0)}
        {numberField("Scale-out cooldown (s)", scaleOut, setScaleOut, 0)}
      </div>
      {!scaleToZero && (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={scaleInDisabled} onChange={(e) => setScaleInDisabled(e.target.checked)} />
          Protect from scale-in (never remove instances automatically)
        </label>
      )}
      {update.error && <ErrorAlert title="Autoscaling not saved" error={update.error} />}
      {update.isSuccess && <Alert tone="info">Saved.</Alert>}
      <FormActions label="Save autoscaling" pendingLabel="Saving…" pending={update.isPending} onCancel={onDone} />
    </form>
  );
}

/** A number input of the form; a minimum of 1 makes it required. */
function numberField(label: string, value: string, set: (value: string) => void, min: number, error?: string) {
  return (
    <TextField
      label={label}
      type="number"
      min={min}
      required={min > 0}
      value={value}
      onChange={(e) => set(e.target.value)}
      error={error}
    />
  );
}
