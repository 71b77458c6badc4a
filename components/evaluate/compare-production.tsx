"use client";

import { ErrorAlert } from "../api/error-text.tsx";
import { Button } from "../ui/button.tsx";
import { useChooseEvaluation } from "./evaluation-queries.ts";

/**
 * An operator's choice of this completed run as what the endpoint's production decisions are judged against: its
 * realised quality stands beside this run's figures until the next deployment, promotion or update of a registry
 * version with an evaluation attached.
 */
export function CompareProduction({ runId, endpointName }: { runId: string; endpointName: string }) {
  const choose = useChooseEvaluation(endpointName);
  return (
    <div className="flex flex-col gap-1 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <Button
          type="button"
          size="sm"
          variant="secondary"
          disabled={choose.isPending}
          onClick={() => choose.mutate(runId)}
        >
          Compare production with this evaluation
        </Button>
        {choose.data && (
          <span className="text-slate-700" role="status">
            The realised quality of {choose.data.endpointName} now stands beside this run.
          </span>
        )}
      </div>
      {choose.error && <ErrorAlert error={choose.error} title="This evaluation could not be chosen" />}
    </div>
  );
}
