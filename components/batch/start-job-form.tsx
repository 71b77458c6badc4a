"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { StartTransformJobInput } from "@/contract/batch/transform-jobs.ts";
import { batchCudaReason, type batchInstanceTypes } from "@/contract/batch/transform-limits.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { useConsoleSettings } from "../api/settings-queries.ts";
import { useDatasets } from "../evaluate/evaluation-queries.ts";
import { DatasetTokenBudgetWarning } from "../evaluate/token-budget-warning.tsx";
import { ProblemSummary } from "../forms/problem-summary.tsx";
import { canSubmit, shownProblems } from "../forms/shown-problems.ts";
import { useFormTouch } from "../forms/use-form-touch.ts";
import { Alert } from "../ui/alert.tsx";
import { Button } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { SelectField, TextField } from "../ui/field.tsx";
import { jobPage, useExportDataset, useStartTransformJob } from "./batch-queries.ts";
import { BatchResourceFields, initialBatchResources } from "./batch-resource-fields.tsx";
import { ModelSourceFields, modelSourceRequest, noModelSource, useDeployedModels } from "./model-source-fields.tsx";
import type { StartJobField } from "./start-job-problems.ts";
import { useStartJobCheck } from "./use-start-job-check.ts";

const optionalInt = (value: string) => (value.trim() === "" ? undefined : Number(value));

/** Start a job: a model the console deployed or a build output plus an image, a JSON Lines input (or a stored dataset exported in one click). */
export function StartJobForm() {
  const models = useDeployedModels();
  const datasets = useDatasets();
  const exporter = useExportDataset();
  const start = useStartTransformJob();
  const router = useRouter();
  const [name, setName] = useState("");
  const [source, setSource] = useState(noModelSource);
  const [dataset, setDataset] = useState("");
  const [input, setInput] = useState("");
  const [resources, setResources] = useState(initialBatchResources);
  const [strategy, setStrategy] = useState<"SingleRecord" | "MultiRecord">("SingleRecord");
  const [payload, setPayload] = useState("");
  const [timeout, setTimeoutSeconds] = useState("600");
  const model = modelSourceRequest(source, models[0]?.name);
  const concurrency = optionalInt(resources.maxConcurrentTransforms);
  const payloadMb = strategy === "MultiRecord" ? optionalInt(payload) : undefined;
  const request: StartTransformJobInput = {
    name: name.trim(),
    ...model,
    inputS3Uri: input.trim(),
    instanceType: resources.instanceType as (typeof batchInstanceTypes)[number],
    instanceCount: Number(resources.instanceCount),
    maxConcurrentTransforms: concurrency,
    batchStrategy: strategy,
    maxPayloadInMB: payloadMb,
    invocationsTimeoutSeconds: Number(timeout),
  };
  /** Each field is checked as it is typed in, by the request schema; every one once "Start job" was tried. */
  const check = useStartJobCheck();
  const namePrefix = useConsoleSettings().data?.resourceNamePrefix ?? null;
  const { touch, edit, submit } = useFormTouch<StartJobField>();
  const problems = check ? check(request, namePrefix) : { fields: {}, summary: [] };
  const shown = shownProblems(problems, touch);
  const error = shown.fields;
  return (
    <Card title="Start a batch transform job">
      <form
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
          if (!model || !canSubmit(problems)) return;
          start.mutate(request, { onSuccess: (job) => router.push(jobPage(job.name)) });
        }}
      >
        <TextField
          label="Job name"
          required
          error={error.name}
          value={name}
          onChange={(e) => {
            edit("name");
            setName(e.target.value);
          }}
        />
        <ModelSourceFields value={source} onChange={setSource} />
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
        {dataset && (
          <DatasetTokenBudgetWarning
            datasetId={dataset}
            modelName={model?.modelName}
            consequence="A transform job fails at the first record its container refuses: leave these items out or deploy with a larger token budget."
          />
        )}
        {exporter.data && <p className="text-xs text-slate-700">Wrote {exporter.data.records} decisions.</p>}
        {exporter.error && <ErrorAlert title="Export failed" error={exporter.error} />}
        <TextField
          label="Input S3 prefix"
          hint="JSON Lines: one decision request body a line. Each output line carries its input (JoinSource Input)."
          required
          placeholder="s3://bucket/batch/inputs/…/"
          pattern="s3://[^\/]+/batch/inputs/.*"
          title="The execution role reads transform inputs only under s3://<artifact bucket>/batch/inputs/."
          error={error.inputS3Uri}
          value={input}
          onChange={(e) => {
            edit("inputS3Uri");
            setInput(e.target.value);
          }}
        />
        <div className="grid gap-3 sm:grid-cols-3">
          <BatchResourceFields
            value={resources}
            errors={error}
            onChange={(next) => {
              if (next.instanceCount !== resources.instanceCount) edit("instanceCount");
              if (next.maxConcurrentTransforms !== resources.maxConcurrentTransforms) edit("maxConcurrentTransforms");
              setResources(next);
            }}
          />
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
              error={error.maxPayloadInMB}
              type="number"
              min={1}
              max={100}
              value={payload}
              onChange={(e) => {
                edit("maxPayloadInMB");
                setPayload(e.target.value);
              }}
            />
          )}
          <TextField
            label="Invocation timeout (s)"
            type="number"
            min={1}
            max={3600}
            error={error.invocationsTimeoutSeconds}
            value={timeout}
            onChange={(e) => {
              edit("invocationsTimeoutSeconds");
              setTimeoutSeconds(e.target.value);
            }}
          />
        </div>
        <Alert tone="info">{batchCudaReason} Models and images of the cuda variant are refused.</Alert>
        <ProblemSummary title="Fix these before starting" problems={shown.summary} />
        {start.error && <ErrorAlert title="The job did not start" error={start.error} />}
        <div>
          <Button type="submit" disabled={start.isPending || !model}>
            {start.isPending ? "Starting…" : "Start job"}
          </Button>
        </div>
      </form>
    </Card>
  );
}
