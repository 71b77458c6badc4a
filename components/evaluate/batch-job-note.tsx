import Link from "next/link";
import type { EvaluationSummary } from "@/contract/evaluate/evaluations.ts";

/** Says that a run is scored by a Batch Transform job, on what, and links to the job's page. */
export function BatchJobNote({ batch }: { batch: NonNullable<EvaluationSummary["batch"]> }) {
  return (
    <p className="text-sm" data-testid="batch-job-note">
      Ran as batch transform job{" "}
      <Link className="font-mono underline" href={`/batch/${batch.jobName}`}>
        {batch.jobName}
      </Link>{" "}
      of model {batch.modelName} on {batch.instanceCount} × {batch.instanceType}, MaxConcurrentTransforms{" "}
      {batch.maxConcurrentTransforms ?? "from the adapter"}. Progress counts the items of each output object as the job
      writes it; latency is the adapter's own time per record.
    </p>
  );
}
