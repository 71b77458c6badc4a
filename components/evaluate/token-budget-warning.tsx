"use client";

import Link from "next/link";
import type { TokenBudgetRefusals } from "@/contract/evaluate/datasets.ts";
import { Alert } from "../ui/alert.tsx";
import { useDataset } from "./evaluation-queries.ts";

/**
 * Before a batch job sends a dataset: how many of its items an endpoint already refused as over its token budget
 * when an evaluation ran them (the model's tokenizer alone can count tokens, so this is what the endpoint said).
 * The entry for `modelName` when there is one (a console-deployed model keeps its endpoint's name), else every one.
 */
export function TokenBudgetWarning({
  refusals,
  modelName,
  consequence,
}: {
  refusals: readonly TokenBudgetRefusals[];
  modelName?: string;
  /** What a refused record does to what is being started. */
  consequence: string;
}) {
  const same = refusals.filter((entry) => entry.endpointName === modelName);
  const shown = same.length > 0 ? same : refusals;
  if (shown.length === 0) return null;
  return (
    <div data-testid="token-budget-warning">
      <Alert tone="warning" title="Items over the token budget">
        <ul className="flex flex-col gap-1">
          {shown.map((entry) => (
            <li key={entry.endpointName} className="break-words">
              {entry.count} item(s) of this dataset exceeded the token budget of <code>{entry.endpointName}</code> in{" "}
              <Link className="underline" href={`/evaluate/${encodeURIComponent(entry.evaluationId)}`}>
                its evaluation
              </Link>{" "}
              (e.g. {entry.itemIds.slice(0, 5).join(", ")}
              {entry.count > 5 ? ", …" : ""}).
            </li>
          ))}
        </ul>
        <p className="mt-1">{consequence}</p>
      </Alert>
    </div>
  );
}

/** The warning for a stored dataset chosen in a form, read from its detail. */
export function DatasetTokenBudgetWarning({
  datasetId,
  modelName,
  consequence,
}: {
  datasetId: string;
  modelName?: string;
  consequence: string;
}) {
  const detail = useDataset(datasetId);
  return (
    <TokenBudgetWarning
      refusals={detail.data?.tokenBudgetRefusals ?? []}
      modelName={modelName}
      consequence={consequence}
    />
  );
}
