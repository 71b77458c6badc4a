import type { EvaluationDetail } from "@/contract/evaluate/evaluations.ts";
import { Alert } from "../ui/alert.tsx";
import { Button } from "../ui/button.tsx";

/**
 * The items of a run that got no answer (busy, timeout, unreachable...), told apart from wrong answers: how many,
 * of which kinds, and, once the run has ended, a button that asks them again.
 */
export function FailedItemsNote({
  run,
  retrying,
  onRetry,
}: {
  run: Pick<EvaluationDetail, "status" | "failedItems" | "results" | "batch">;
  retrying: boolean;
  onRetry: () => void;
}) {
  if (run.failedItems === 0) return null;
  const kinds = new Map<string, number>();
  for (const result of run.results) {
    for (const [kind, count] of Object.entries(result.metrics.errors)) kinds.set(kind, (kinds.get(kind) ?? 0) + count);
  }
  const byKind = [...kinds].map(([kind, count]) => `${kind} ${count}`).join(", ");
  return (
    <Alert tone="warning" title={`${run.failedItems} item(s) got no answer`}>
      <p>
        {byKind && `${byKind}. `}These are failures of the endpoint, not wrong answers: accuracy is over the items
        answered, and the failed ones are counted beside it.
      </p>
      {run.status !== "running" && !run.batch && (
        <Button className="mt-2" variant="secondary" size="sm" disabled={retrying} onClick={onRetry}>
          Retry the failed items
        </Button>
      )}
    </Alert>
  );
}
