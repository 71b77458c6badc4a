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
import {
  type AutoscalingField,
  autoscalingProblems,
  autoscalingRequestOf,
  type AutoscalingForm as Form,
  initialAutoscalingForm,
  autoscalingFieldLabels as labels,
  showsScaleToZero,
} from "./autoscaling-form.ts";
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
  /** Asynchronous endpoints may scale to zero when idle; a real-time endpoint's card never offers or shows it. */
  asynchronous: boolean;
  instanceCount: number | null;
}) {
  const [editing, setEditing] = useState(false);
  const scaledToZero = showsScaleToZero(autoscaling, asynchronous);
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
          {scaledToZero ? (
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
      {!editing && scaledToZero && (
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
  const [form, setForm] = useState(() => initialAutoscalingForm(initial, asynchronous));
  const field =
    <K extends keyof Form>(key: K) =>
    (value: Form[K]) =>
      setForm((current) => ({ ...current, [key]: value }));
  const { scaleToZero, scaleInDisabled } = form;
  const update = useUpdateAutoscaling(name);
  const body = autoscalingRequestOf(form, asynchronous);
  /** The form starts valid, so each field's problem shows as it is typed; saving waits until there is none. */
  const problems = autoscalingProblems(form, asynchronous);
  const error = problems.fields;
  const numberField = (key: Exclude<AutoscalingField, "scaleInDisabled">, min: number) => (
    <TextField
      label={labels[key]}
      type="number"
      min={min}
      required={min > 0}
      value={form[key]}
      onChange={(e) => field(key)(e.target.value)}
      error={error[key]}
    />
  );
  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (problems.summary.length > 0) return;
        update.mutate(body, { onSuccess: onDone });
      }}
    >
      {asynchronous && (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={scaleToZero} onChange={(e) => field("scaleToZero")(e.target.checked)} />
          Scale to zero when idle (0 instances while the queue is empty; a request then waits for a cold start)
        </label>
      )}
      <div className="grid grid-cols-2 gap-3">
        {scaleToZero ? (
          <TextField label="Minimum instances" type="number" value="0" disabled readOnly />
        ) : (
          numberField("min", 1)
        )}
        {numberField("max", 1)}
        {scaleToZero ? numberField("backlog", 1) : numberField("target", 1)}
        {numberField("scaleIn", 0)}
        {numberField("scaleOut", 0)}
      </div>
      {!scaleToZero && (
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={scaleInDisabled}
            onChange={(e) => field("scaleInDisabled")(e.target.checked)}
          />
          Protect from scale-in (never remove instances automatically)
        </label>
      )}
      {update.error && <ErrorAlert title="Autoscaling not saved" error={update.error} />}
      {update.isSuccess && <Alert tone="info">Saved.</Alert>}
      {error.scaleInDisabled && <p className="text-xs text-red-700">{error.scaleInDisabled}</p>}
      <FormActions
        label="Save autoscaling"
        pendingLabel="Saving…"
        pending={update.isPending}
        disabled={problems.summary.length > 0}
        onCancel={onDone}
      />
    </form>
  );
}
