"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { batchInstanceTypes } from "@/contract/batch/transform-limits.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { BatchResourceFields, initialBatchResources } from "../batch/batch-resource-fields.tsx";
import { useEndpoints } from "../endpoints/endpoint-queries.ts";
import { Button } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { SelectField, TextField } from "../ui/field.tsx";
import { RadioChoice } from "../ui/radio-choice.tsx";
import { useDatasets, useStartEvaluation } from "./evaluation-queries.ts";
import { DatasetTokenBudgetWarning } from "./token-budget-warning.tsx";

type Target = "endpoints" | "batch";
const targets = [
  { value: "endpoints", label: "Endpoints (real time)" },
  { value: "batch", label: "A model, as a batch transform job" },
] as const;

/**
 * Dataset and what to run it on: one or two InService endpoints (concurrency per endpoint), or a model the console
 * deployed as a Batch Transform job (instance type, count, MaxConcurrentTransforms); and the target accuracy.
 * Starting opens the run's page.
 */
export function NewEvaluationForm({
  datasetId,
  onDatasetChange,
}: {
  datasetId: string;
  onDatasetChange: (id: string) => void;
}) {
  const router = useRouter();
  const datasets = useDatasets();
  const endpoints = useEndpoints();
  const start = useStartEvaluation();
  const [target, setTarget] = useState<Target>("endpoints");
  const [first, setFirst] = useState("");
  const [second, setSecond] = useState("");
  const [concurrency, setConcurrency] = useState("1");
  const [model, setModel] = useState("");
  const [resources, setResources] = useState(initialBatchResources);
  const [accuracy, setAccuracy] = useState("90");
  const managed = (endpoints.data?.endpoints ?? []).filter((endpoint) => endpoint.managed);
  const inService = managed.filter((endpoint) => endpoint.status === "InService");
  const list = datasets.data?.datasets ?? [];
  const ready = target === "endpoints" ? first !== "" : model !== "";

  return (
    <Card title="Run an evaluation">
      <form
        aria-label="Run an evaluation"
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          const common = { datasetId, targetAccuracy: Number(accuracy) / 100 };
          const request =
            target === "endpoints"
              ? { ...common, endpoints: [first, second].filter(Boolean), concurrency: Number(concurrency) }
              : {
                  ...common,
                  batch: {
                    modelName: model,
                    instanceType: resources.instanceType as (typeof batchInstanceTypes)[number],
                    instanceCount: Number(resources.instanceCount),
                    maxConcurrentTransforms:
                      resources.maxConcurrentTransforms.trim() === ""
                        ? undefined
                        : Number(resources.maxConcurrentTransforms),
                  },
                };
          start.mutate(request, { onSuccess: (run) => router.push(`/evaluate/${run.id}`) });
        }}
      >
        <SelectField
          label="Dataset"
          value={datasetId}
          onChange={(event) => onDatasetChange(event.target.value)}
          required
        >
          <option value="">Choose a dataset…</option>
          {list.map((dataset) => (
            <option key={dataset.id} value={dataset.id}>
              {dataset.name} ({dataset.itemCount} decisions, {dataset.source})
            </option>
          ))}
        </SelectField>
        <RadioChoice legend="Run on" name="evaluation-target" value={target} choices={targets} onChange={setTarget} />
        {target === "endpoints" ? (
          <>
            <NameSelect
              label="Endpoint"
              names={inService.map((endpoint) => endpoint.name)}
              value={first}
              onChange={setFirst}
              empty="Choose an InService endpoint…"
              required
              hint={inService.length === 0 ? "No endpoint the console deployed is InService yet." : undefined}
            />
            <NameSelect
              label="Second endpoint (optional, side by side)"
              names={inService.map((endpoint) => endpoint.name).filter((name) => name !== first)}
              value={second}
              onChange={setSecond}
              empty="—"
            />
            <TextField
              label="Concurrency per endpoint"
              type="number"
              min={1}
              max={16}
              value={concurrency}
              onChange={(event) => setConcurrency(event.target.value)}
              hint="1 measures serial latency, as the AWS sample's table does."
            />
          </>
        ) : (
          <>
            <NameSelect
              label="Model"
              names={managed.map((endpoint) => endpoint.name)}
              value={model}
              onChange={setModel}
              empty="Choose a model…"
              required
              hint="The model of an endpoint the console deployed (it keeps the endpoint's name); the dataset goes to S3 and one transform job scores it."
            />
            <div className="grid gap-3 sm:grid-cols-3">
              <BatchResourceFields value={resources} onChange={setResources} />
            </div>
            {datasetId && (
              <DatasetTokenBudgetWarning
                datasetId={datasetId}
                modelName={model || undefined}
                consequence="The transform job sends them again; the evaluation records each refusal as an item error, counted wrong."
              />
            )}
          </>
        )}
        <TextField
          label="Target accuracy (%)"
          type="number"
          min={1}
          max={100}
          step="0.1"
          value={accuracy}
          onChange={(event) => setAccuracy(event.target.value)}
        />
        <div>
          <Button type="submit" disabled={!datasetId || !ready || start.isPending}>
            {start.isPending ? "Starting…" : "Start evaluation"}
          </Button>
        </div>
        {start.isError && <ErrorAlert title="The evaluation did not start" error={start.error} />}
      </form>
    </Card>
  );
}

/** A choice of names the console knows, with an empty first entry. */
function NameSelect({
  label,
  names,
  value,
  onChange,
  empty,
  required,
  hint,
}: {
  label: string;
  names: readonly string[];
  value: string;
  onChange: (name: string) => void;
  empty: string;
  required?: boolean;
  hint?: string;
}) {
  return (
    <SelectField
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      required={required}
      hint={hint}
    >
      <option value="">{empty}</option>
      {names.map((name) => (
        <option key={name} value={name}>
          {name}
        </option>
      ))}
    </SelectField>
  );
}
