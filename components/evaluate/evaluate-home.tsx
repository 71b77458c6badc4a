"use client";

import { useEffect, useState } from "react";
import { PageHeader } from "../ui/card.tsx";
import { DatasetPanel } from "./dataset-panel.tsx";
import { EvaluationsTable } from "./evaluations-table.tsx";
import { NewEvaluationForm } from "./new-evaluation-form.tsx";

export function EvaluateHome() {
  const [datasetId, setDatasetId] = useState("");
  // `/evaluate?dataset=<id>` (the review queue's export links here) starts with that dataset picked.
  useEffect(() => {
    const linked = new URLSearchParams(window.location.search).get("dataset");
    if (linked) setDatasetId(linked);
  }, []);
  return (
    <>
      <PageHeader
        title="Evaluate"
        description="Score labelled decisions on one or two endpoints: accuracy, calibration, latency and the threshold to route on."
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <DatasetPanel onAdded={setDatasetId} />
        <NewEvaluationForm datasetId={datasetId} onDatasetChange={setDatasetId} />
      </div>
      <div className="mt-4">
        <EvaluationsTable />
      </div>
    </>
  );
}
