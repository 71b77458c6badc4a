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
}: {
  name: string;
  status: EndpointStatus;
  autoscaling: Autoscaling | null;
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
        <AutoscalingForm name={name} initial={autoscaling} onDone={() => setEditing(false)} />
      ) : autoscaling ? (
        <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-700">Instances</dt>
          <dd>
            {autoscaling.minCapacity} to {autoscaling.maxCapacity}
          </dd>
          <dt className="text-slate-700">Target invocations per instance per minute</dt>
          <dd>{autoscaling.targetInvocationsPerInstance ?? "no policy"}</dd>
          <dt className="text-slate-700">Scale-in</dt>
          <dd>{autoscaling.scaleInDisabled ? "disabled (protected)" : "enabled"}</dd>
          <dt className="text-slate-700">Cooldowns (in / out)</dt>
          <dd>
            {autoscaling.scaleInCooldownSeconds ?? "default"} s / {autoscaling.scaleOutCooldownSeconds ?? "default"} s
          </dd>
        </dl>
      ) : (
        <p className="text-sm text-slate-700">Not configured: the instance count stays where it is set.</p>
      )}
    </Card>
  );
}

function AutoscalingForm({ name, initial, onDone }: { name: string; initial: Autoscaling | null; onDone: () => void }) {
  const [min, setMin] = useState(String(initial?.minCapacity ?? 1));
  const [max, setMax] = useState(String(initial?.maxCapacity ?? 2));
  const [target, setTarget] = useState(String(initial?.targetInvocationsPerInstance ?? 60));
  const [scaleInDisabled, setScaleInDisabled] = useState(initial?.scaleInDisabled ?? false);
  const [scaleIn, setScaleIn] = useState(String(initial?.scaleInCooldownSeconds ?? 300));
  const [scaleOut, setScaleOut] = useState(String(initial?.scaleOutCooldownSeconds ?? 60));
  const update = useUpdateAutoscaling(name);
  const invalid = Number(min) > Number(max) ? "The minimum must not exceed the maximum." : undefined;
  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (invalid) return;
        update.mutate(
          {
            minCapacity: Number(min),
            maxCapacity: Number(max),
            targetInvocationsPerInstance: Number(target),
            scaleInDisabled,
            scaleInCooldownSeconds: Number(scaleIn),
            scaleOutCooldownSeconds: Number(scaleOut),
          },
          { onSuccess: onDone },
        );
      }}
    >
      <div className="grid grid-cols-2 gap-3">
        <TextField
          label="Minimum instances"
          type="number"
          min={1}
          required
          value={min}
          onChange={(e) => setMin(e.target.value)}
        />
        <TextField
          label="Maximum instances"
          type="number"
          min={1}
          required
          value={max}
          onChange={(e) => setMax(e.target.value)}
          error={invalid}
        />
        <TextField
          label="Target invocations per instance per minute"
          type="number"
          min={1}
          required
          value={target}
          onChange={(e) => setTarget(e.target.value)}
        />
        <TextField
          label="Scale-in cooldown (s)"
          type="number"
          min={0}
          value={scaleIn}
          onChange={(e) => setScaleIn(e.target.value)}
        />
        <TextField
          label="Scale-out cooldown (s)"
          type="number"
          min={0}
          value={scaleOut}
          onChange={(e) => setScaleOut(e.target.value)}
        />
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={scaleInDisabled} onChange={(e) => setScaleInDisabled(e.target.checked)} />
        Protect from scale-in (never remove instances automatically)
      </label>
      {update.error && <ErrorAlert title="Autoscaling not saved" error={update.error} />}
      {update.isSuccess && <Alert tone="info">Saved.</Alert>}
      <FormActions label="Save autoscaling" pendingLabel="Saving…" pending={update.isPending} onCancel={onDone} />
    </form>
  );
}
