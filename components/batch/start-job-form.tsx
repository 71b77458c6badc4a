"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { batchInstanceTypes } from "@/contract/batch/transform-jobs.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { useEndpoints } from "../endpoints/endpoint-queries.ts";
import { useDatasets } from "../evaluate/evaluation-queries.ts";
import { Alert } from "../ui/alert.tsx";
import { Button } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { SelectField, TextField } from "../ui/field.tsx";
import { jobPath, useExportDataset, useStartTransformJob } from "./batch-queries.ts";
import { BatchResourceFields, initialBatchResources } from "./batch-resource-fields.tsx";

const optionalInt = (value: string) => (value.trim() === "" ? undefined : Number(value));

/** Start a job: a model the console deployed, a JSON Lines input (or a stored dataset exported in one click). */
export function StartJobForm() {
  const endpoints = useEndpoints();
  const datasets = useDatasets();
  const exporter = useExportDataset();
  const start = useStartTransformJob();
  const router = useRouter();
  const [name, setName] = useState("");
  const [model, setModel] = useState("");
  const [dataset, setDataset] = useState("");
  const [input, setInput] = useState("");
  const [resources, setResources] = useState(initialBatchResources);
  const [strategy, setStrategy] = useState<"SingleRecord" | "MultiRecord">("SingleRecord");
  const [payload, setPayload] = useState("");
  const [timeout, setTimeoutSeconds] = useState("600");
  const models = (endpoints.data?.endpoints ?? []).filter((endpoint) => endpoint.managed);
  return (
    <Card title="Start a batch transform job">
      <form
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          start.mutate(
            {
              name: name.trim(),
              modelName: model || (models[0]?.name ?? ""),
              inputS3Uri: input.trim(),
              instanceType: resources.instanceType as (typeof batchInstanceTypes)[number],
              instanceCount: Number(resources.instanceCount),
              maxConcurrentTransforms: optionalInt(resources.maxConcurrentTransforms),
              batchStrategy: strategy,
              maxPayloadInMB: strategy === "MultiRecord" ? optionalInt(payload) : undefined,
              invocationsTimeoutSeconds: Number(timeout),
            },
            { onSuccess: (job) => router.push(jobPath(job.name).replace("/api", "")) },
          );
        }}
      >
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField label="Job name" required value={name} onChange={(e) => setName(e.target.value)} />
          <SelectField
            label="Model"
            hint="The model of an endpoint the console deployed (it keeps the endpoint's name)."
            value={model}
            onChange={(e) => setModel(e.target.value)}
          >
            {models.map((endpoint) => (
              <option key={endpoint.name} value={endpoint.name}>
                {endpoint.name} ({endpoint.status})
              </option>
            ))}
          </SelectField>
        </div>
        <div className="grid items-end gap-3 sm:grid-cols-[minmax(0,1fr)_auto]">
          <SelectField label="Stored dataset" value={dataset} onChange={(e) => setDataset(e.target.value)}>
            <option value="">—</option>
            {datasets.data?.datasets.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.name} ({candidate.itemCount} items)
              </option>
            ))}
          </SelectField>
          <Button
            type="button"
            variant="secondary"
            disabled={!dataset || exporter.isPending}
            onClick={() => exporter.mutate(dataset, { onSuccess: (exported) => setInput(exported.inputS3Uri) })}
          >
            {exporter.isPending ? "Exporting…" : "Export to S3 as input"}
          </Button>
        </div>
        {exporter.data && <p className="text-xs text-slate-700">Wrote {exporter.data.records} decisions.</p>}
        {exporter.error && <ErrorAlert title="Export failed" error={exporter.error} />}
        <TextField
          label="Input S3 prefix"
          hint="JSON Lines: one decision request body a line. Each output line carries its input (JoinSource Input)."
          required
          placeholder="s3://bucket/batch/inputs/…/"
          value={input}
          onChange={(e) => setInput(e.target.value)}
        />
        <div className="grid gap-3 sm:grid-cols-3">
          <BatchResourceFields value={resources} onChange={setResources} />
          <SelectField
            label="Batch strategy"
            value={strategy}
            onChange={(e) => setStrategy(e.target.value as "SingleRecord" | "MultiRecord")}
          >
            <option value="SingleRecord">SingleRecord</option>
            <option value="MultiRecord">MultiRecord</option>
          </SelectField>
          {strategy === "MultiRecord" && (
            <TextField
              label="Max payload (MB)"
              hint="Blank: the adapter's announced body limit."
              type="number"
              min={1}
              max={100}
              value={payload}
              onChange={(e) => setPayload(e.target.value)}
            />
          )}
          <TextField
            label="Invocation timeout (s)"
            type="number"
            min={1}
            max={3600}
            value={timeout}
            onChange={(e) => setTimeoutSeconds(e.target.value)}
          />
        </div>
        <Alert tone="info">
          Batch jobs run the <strong>cpu</strong> image on CPU instances only: SageMaker chooses no inference AMI for
          transform jobs, so the NVIDIA driver the cuda image (CUDA 13) needs is not guaranteed there. Models of the
          cuda image are refused.
        </Alert>
        {start.error && <ErrorAlert title="The job did not start" error={start.error} />}
        <div>
          <Button type="submit" disabled={start.isPending || models.length === 0}>
            {start.isPending ? "Starting…" : "Start job"}
          </Button>
        </div>
      </form>
    </Card>
  );
}
