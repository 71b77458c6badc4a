"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ErrorAlert } from "../api/error-text.tsx";
import { useEndpoints } from "../endpoints/endpoint-queries.ts";
import { Button } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { SelectField, TextField } from "../ui/field.tsx";
import { useDatasets, useStartEvaluation } from "./evaluation-queries.ts";

/** Dataset, one or two endpoints, concurrency and target accuracy; starting opens the run's page. */
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
  const [first, setFirst] = useState("");
  const [second, setSecond] = useState("");
  const [concurrency, setConcurrency] = useState("1");
  const [target, setTarget] = useState("90");
  const known = (endpoints.data?.endpoints ?? []).filter(
    (endpoint) => endpoint.managed && endpoint.status === "InService",
  );
  const list = datasets.data?.datasets ?? [];

  return (
    <Card title="Run an evaluation">
      <form
        aria-label="Run an evaluation"
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          start.mutate(
            {
              datasetId,
              endpoints: [first, second].map((name) => name.trim()).filter(Boolean),
              concurrency: Number(concurrency),
              targetAccuracy: Number(target) / 100,
            },
            { onSuccess: (run) => router.push(`/evaluate/${run.id}`) },
          );
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
        <datalist id="evaluation-endpoints">
          {known.map((endpoint) => (
            <option key={endpoint.name} value={endpoint.name} />
          ))}
        </datalist>
        <TextField
          label="Endpoint"
          list="evaluation-endpoints"
          value={first}
          onChange={(event) => setFirst(event.target.value)}
          required
          hint="An InService endpoint name."
        />
        <TextField
          label="Second endpoint (optional, side by side)"
          list="evaluation-endpoints"
          value={second}
          onChange={(event) => setSecond(event.target.value)}
        />
        <div className="grid grid-cols-2 gap-3">
          <TextField
            label="Concurrency per endpoint"
            type="number"
            min={1}
            max={16}
            value={concurrency}
            onChange={(event) => setConcurrency(event.target.value)}
            hint="1 measures serial latency, as the AWS sample's table does."
          />
          <TextField
            label="Target accuracy (%)"
            type="number"
            min={1}
            max={100}
            step="0.1"
            value={target}
            onChange={(event) => setTarget(event.target.value)}
          />
        </div>
        <div>
          <Button type="submit" disabled={!datasetId || !first.trim() || start.isPending}>
            {start.isPending ? "Starting…" : "Start evaluation"}
          </Button>
        </div>
        {start.isError && <ErrorAlert title="The evaluation did not start" error={start.error} />}
      </form>
    </Card>
  );
}
