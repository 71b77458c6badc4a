"use client";

import { useState } from "react";
import { ErrorAlert } from "../api/error-text.tsx";
import { Alert } from "../ui/alert.tsx";
import { Button } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { TextField } from "../ui/field.tsx";
import { useAddSample, useDatasets, useUploadDataset } from "./evaluation-queries.ts";
import { latestAction } from "./latest-action.ts";

/** Upload a labelled decision set or add a built-in sample. */
export function DatasetPanel({ onAdded }: { onAdded: (datasetId: string) => void }) {
  const datasets = useDatasets();
  const upload = useUploadDataset();
  const addSample = useAddSample();
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState("");
  const samples = datasets.data?.samples ?? [];
  const latest = latestAction({ upload, sample: addSample });

  return (
    <Card title="Labelled decisions">
      <form
        className="flex flex-col gap-3"
        aria-label="Upload a dataset"
        onSubmit={(event) => {
          event.preventDefault();
          if (file) upload.mutate({ file, name }, { onSuccess: (dataset) => onAdded(dataset.id) });
        }}
      >
        <div className="flex flex-col gap-1">
          <label htmlFor="dataset-file" className="text-sm font-medium text-slate-800">
            JSON Lines or CSV file
          </label>
          <input
            id="dataset-file"
            type="file"
            accept=".jsonl,.ndjson,.json,.csv,application/json,text/csv"
            aria-describedby="dataset-file-hint"
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
            className="text-sm"
          />
          <p id="dataset-file-hint" className="text-xs text-slate-600">
            One decision per row: <code>id, state, question, options, answer</code> (SemIf shape; JevBench rows as they
            are), or a System One or OpenAI Decisions request with the right answers under <code>expected</code>
            (one item per question). CSV options: <code>no: Wait|yes: Escalate</code> or a JSON array.
          </p>
        </div>
        <TextField label="Name (optional)" value={name} onChange={(event) => setName(event.target.value)} />
        <div>
          <Button type="submit" disabled={!file || upload.isPending}>
            {upload.isPending ? "Uploading…" : "Upload dataset"}
          </Button>
        </div>
        {latest === "upload" && upload.isError && (
          <ErrorAlert title="The dataset was not stored" error={upload.error} />
        )}
        {latest === "upload" && upload.isSuccess && (
          <Alert tone="info">
            Stored {upload.data.name}: {upload.data.itemCount} decisions.
          </Alert>
        )}
      </form>
      <div className="mt-4 flex flex-col gap-2 border-t border-slate-200 pt-3">
        <h3 className="text-sm font-semibold">Built-in samples</h3>
        {samples.map((sample) => (
          <div key={sample.name} className="flex flex-wrap items-center gap-2 text-sm">
            <span>{sample.title}</span>
            {sample.available ? (
              <Button
                variant="secondary"
                size="sm"
                disabled={addSample.isPending}
                onClick={() => addSample.mutate(sample.name, { onSuccess: (dataset) => onAdded(dataset.id) })}
              >
                Use this sample
              </Button>
            ) : (
              <span className="text-slate-700">Not available: {sample.reason}</span>
            )}
          </div>
        ))}
        {latest === "sample" && addSample.isError && (
          <ErrorAlert title="The sample was not added" error={addSample.error} />
        )}
      </div>
    </Card>
  );
}
