"use client";

import { type InputHTMLAttributes, useEffect, useState } from "react";
import type { EndpointDetail } from "@/contract/endpoints/endpoint.ts";
import { maxInstancePools } from "@/contract/endpoints/instance-pools.ts";
import { describePlan } from "@/contract/endpoints/update.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { ProblemSummary } from "../forms/problem-summary.tsx";
import { SelectField, TextField } from "../ui/field.tsx";
import { FormActions } from "../ui/form-actions.tsx";
import { Table, TableBody, TableHead } from "../ui/table.tsx";
import { useEndpointMetrics } from "./endpoint-activity-queries.ts";
import { useUpdateEndpoint } from "./endpoint-queries.ts";
import { latencyAlarmDefault } from "./latency-alarm-default.ts";
import { type UpdateField, updateFieldLabels } from "./update-fields.ts";
import {
  autoscalingToReRegister,
  initialUpdateForm,
  type UpdateForm,
  updateDiff,
  updatePlan,
  updateProblems,
  updateRequestOf,
} from "./update-form.ts";
import { VersionField } from "./update-version-field.tsx";

type FieldOptions = InputHTMLAttributes<HTMLInputElement> & { hint?: string };

const strategyHints: Record<UpdateForm["strategy"], string> = {
  "all-at-once": "Blue/green: the new fleet takes all traffic at once, then bakes.",
  canary: "Blue/green: a canary (at most 50% of the fleet) takes its share and bakes, then the rest moves.",
  linear: "Blue/green: traffic moves in equal steps (10-50% of the fleet each), each step baking.",
  rolling: "Rolling: instances are replaced in batches (5-50% of the fleet), for fleets short of quota.",
};

/**
 * Update the endpoint in place: what changes (a diff against what it runs now), how traffic moves to the new fleet
 * (the plan SageMaker follows), and the alarms that roll it back.
 */
export function UpdateEndpointForm({
  endpoint,
  initial,
  onDone,
}: {
  endpoint: EndpointDetail;
  initial?: Partial<UpdateForm>;
  onDone: () => void;
}) {
  const [form, setForm] = useState(() => initialUpdateForm(endpoint, initial));
  const update = useUpdateEndpoint(endpoint.name);
  const recent = useEndpointMetrics(endpoint.name, { minutes: 60, periodSeconds: 300 });
  const latency = latencyAlarmDefault(recent.data);
  const standardLatency = initialUpdateForm(endpoint, initial).latencyAverageMs;
  const derivedThreshold = latency?.thresholdMs ?? null;
  // Once the last hour's latency is known, a threshold nobody typed moves above it.
  useEffect(() => {
    if (derivedThreshold === null) return;
    setForm((current) =>
      current.latencyAverageMs === standardLatency
        ? { ...current, latencyAverageMs: String(derivedThreshold) }
        : current,
    );
  }, [derivedThreshold, standardLatency]);
  const set = (key: keyof UpdateForm) => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [key]: event.target.value }));
  const diff = updateDiff(endpoint, form);
  const problems = updateProblems(endpoint, form);
  const plan = updatePlan(endpoint, form);
  const reRegistered = autoscalingToReRegister(endpoint, form);
  const sized = form.strategy !== "all-at-once";
  const labels = updateFieldLabels(form.strategy);
  /** Problems show once something changed; until then the form is what the endpoint runs. */
  const shown = diff.length > 0 ? problems : { fields: {}, summary: [] };
  const textField = (key: UpdateField, props: FieldOptions = {}) => (
    <TextField label={labels[key]} value={form[key]} onChange={set(key)} error={shown.fields[key]} {...props} />
  );
  const numberField = (key: UpdateField, props: FieldOptions = {}) => textField(key, { type: "number", ...props });
  return (
    <form
      aria-label="Update endpoint"
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (problems.summary.length > 0) return;
        // Not mutate's onSuccess: the answer refreshes the endpoint to Updating, which unmounts this form before
        // that callback would run, and the card would keep its form open for when the update ends.
        update.mutateAsync(updateRequestOf(endpoint, form)).then(onDone, () => undefined);
      }}
    >
      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold">What changes</legend>
        <VersionField
          form={form}
          setForm={setForm}
          label={labels.modelVersionArn}
          error={shown.fields.modelVersionArn}
        />
        {form.modelVersionArn === "" && (
          <>
            {textField("imageUri")}
            {textField("modelDataUrl")}
            {textField("modelSha256")}
          </>
        )}
        {numberField("temperature", {
          step: "any",
          min: 0,
          hint: "SEMIF_TEMPERATURE; empty: the adapter's default (1).",
        })}
        {numberField("threads", { min: 1 })}
        {numberField("parallel", {
          min: 1,
          hint: "ADAPTER_PARALLEL; empty: the adapter's default.",
        })}
        {numberField("instanceCount", { min: 1, max: 20 })}
        {textField("instanceType", { hint: "One type, e.g. ml.c6i.4xlarge; empty it to use pools." })}
        {textField("instancePools", {
          hint: `Up to ${maxInstancePools} types, highest priority first, separated by commas; empty them to use one type.`,
        })}
      </fieldset>

      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold">How traffic moves</legend>
        <SelectField
          label={labels.strategy}
          value={form.strategy}
          onChange={set("strategy")}
          hint={strategyHints[form.strategy]}
        >
          <option value="all-at-once">All at once</option>
          <option value="canary">Canary</option>
          <option value="linear">Linear</option>
          <option value="rolling">Rolling</option>
        </SelectField>
        {sized && (
          <>
            {numberField("sizeValue", { min: 1 })}
            <SelectField label={labels.sizeUnit} value={form.sizeUnit} onChange={set("sizeUnit")}>
              <option value="instances">instances</option>
              <option value="percent">percent of the fleet</option>
            </SelectField>
          </>
        )}
        {numberField("waitSeconds", {
          min: 0,
          max: 3600,
          hint: "0-3600 s; the rollback alarms are watched meanwhile.",
        })}
        {form.strategy === "rolling" ? (
          <>
            {numberField("rollbackSizeValue", {
              min: 1,
              hint: "RollbackMaximumBatchSize; empty: all at once.",
            })}
            <SelectField
              label={labels.rollbackSizeUnit}
              value={form.rollbackSizeUnit}
              onChange={set("rollbackSizeUnit")}
            >
              <option value="instances">instances</option>
              <option value="percent">percent of the fleet</option>
            </SelectField>
          </>
        ) : (
          numberField("terminationWaitSeconds", {
            min: 0,
            max: 3600,
            hint: "TerminationWaitInSeconds, 0-3600.",
          })
        )}
        {numberField("maxExecutionSeconds", {
          min: 600,
          max: 28800,
          hint: "600-28800 s; empty: SageMaker's default. A longer update rolls back.",
        })}
      </fieldset>

      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold">Rollback alarms</legend>
        <SelectField label={labels.alarms} value={form.alarms} onChange={set("alarms")}>
          <option value="standard">Create the standard alarms</option>
          <option value="existing">Use existing alarms</option>
          <option value="none">None (no automatic rollback)</option>
        </SelectField>
        {form.alarms === "standard" && (
          <>
            {numberField("latencyAverageMs", {
              min: 0,
              step: "any",
              hint: latency
                ? `Last hour: ModelLatency averaged ${Math.round(latency.recentAverageMs)} ms, at most ` +
                  `${Math.round(latency.highestMs)} ms in 5 minutes; the default is twice that (at least 2000 ms), ` +
                  "so the alarm is not already crossed when the update starts."
                : "No recent ModelLatency to go by: the standard 2000 ms. SageMaker publishes no percentile of it.",
            })}
            {numberField("max5xxPerMinute", { min: 0 })}
            {numberField("maxModelErrorsPerMinute", {
              min: 0,
              hint: "InvocationModelErrors; on an asynchronous endpoint, InvocationFailures.",
            })}
          </>
        )}
        {form.alarms === "existing" &&
          textField("existingAlarms", { hint: "1-10 CloudWatch alarm names, separated by commas." })}
      </fieldset>

      <section aria-label="Review" className="flex flex-col gap-2 text-sm">
        <h3 className="font-semibold">Review</h3>
        {diff.length === 0 ? (
          <p className="text-slate-700">Nothing changes yet.</p>
        ) : (
          <Table caption="What the update changes" size="xs" compact>
            <TableHead plain>
              <th scope="col">Setting</th>
              <th scope="col">Now</th>
              <th scope="col">After the update</th>
            </TableHead>
            <TableBody>
              {diff.map((row) => (
                <tr key={row.setting}>
                  <td>{row.setting}</td>
                  <td className="break-all font-mono">{row.from}</td>
                  <td className="break-all font-mono">{row.to}</td>
                </tr>
              ))}
            </TableBody>
          </Table>
        )}
        {reRegistered && (
          <p className="text-slate-800">
            Autoscaling ({reRegistered.minCapacity}-{reRegistered.maxCapacity} instances) is deregistered before the
            update, because Application Auto Scaling refuses to change a scaled variant's instance type, and registered
            again with the same bounds and policy once the endpoint is InService.
          </p>
        )}
        {form.strategy === "rolling" && <RollingBatchReview form={form} />}
        {plan && (
          <ol
            aria-label={form.strategy === "rolling" ? "Batches" : "Steps"}
            className="list-decimal pl-5 text-slate-800"
          >
            {describePlan(plan).map((step) => (
              <li key={step}>{step}</li>
            ))}
            {plan.terminationWaitSeconds > 0 && (
              <li>The old fleet is kept {plan.terminationWaitSeconds} s, then stopped</li>
            )}
          </ol>
        )}
      </section>

      <ProblemSummary tone="warning" title="Fix before updating" problems={shown.summary} />
      {update.error && <ErrorAlert title="The update was not started" error={update.error} />}
      <FormActions
        label="Update endpoint"
        pendingLabel="Starting the update…"
        pending={update.isPending}
        disabled={problems.summary.length > 0}
        onCancel={onDone}
      />
    </form>
  );
}

const sizeWords = (value: string, unit: UpdateForm["sizeUnit"]) =>
  unit === "percent" ? `${value}% of the fleet (CAPACITY_PERCENT)` : `${value} instances (INSTANCE_COUNT)`;

/** The rolling policy as RollingUpdatePolicy will carry it. */
function RollingBatchReview({ form }: { form: UpdateForm }) {
  const rows: [string, string][] = [
    ["Batch size (MaximumBatchSize)", sizeWords(form.sizeValue, form.sizeUnit)],
    ["Wait between batches (WaitIntervalInSeconds)", `${form.waitSeconds} s`],
    [
      "Rollback batch size (RollbackMaximumBatchSize)",
      form.rollbackSizeValue.trim()
        ? sizeWords(form.rollbackSizeValue, form.rollbackSizeUnit)
        : "the whole fleet at once (not set)",
    ],
  ];
  return (
    <dl aria-label="Rolling batches" className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-slate-700">{term}</dt>
          <dd className="font-mono">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
