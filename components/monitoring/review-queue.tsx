"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { type ReviewItem, type ReviewOrder, reviewOrders } from "@/contract/endpoints/review.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { Button } from "../ui/button.tsx";
import { Card, PageHeader } from "../ui/card.tsx";
import { SelectField, TextField } from "../ui/field.tsx";
import { Table, TableBody, TableHead } from "../ui/table.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { IncludeEvaluationToggle } from "./include-evaluation-toggle.tsx";
import { reviewKeyChoice } from "./review-queue-keys.ts";
import { useExportReview, useLabelDecision, useReviewQueue } from "./review-queue-queries.ts";

const orderLabels: Record<ReviewOrder, string> = {
  "lowest-confidence": "Lowest confidence first",
  random: "Random",
  "shadow-disagrees": "Shadow chose otherwise",
};

const keyOf = (item: { objectKey: string; line: number; item: number }) =>
  `${item.objectKey}#${item.line}#${item.item}`;
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/** Keys typed in a field are the field's, not the queue's. */
function typingIn(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))
  );
}

/** The decision to label: its state, question and each option's probability, numbered for the keyboard. */
export function DecisionCard({
  item,
  busy,
  onLabel,
  onSkip,
}: {
  item: ReviewItem;
  busy: boolean;
  onLabel: (option: string) => void;
  onSkip: () => void;
}) {
  return (
    <Card title={item.question || "(no question)"}>
      <p className="mb-2 text-xs text-slate-600">
        Decided <Timestamp at={item.at} /> by {item.variant} (decision {item.decisionId}).
      </p>
      <h3 className="mb-1 text-sm font-semibold">State</h3>
      <pre className="mb-3 max-h-80 overflow-auto rounded border border-slate-200 bg-slate-50 p-2 text-sm whitespace-pre-wrap">
        {item.state}
        {item.stateTruncated && "\n… (cut: the whole state goes with the label)"}
      </pre>
      <ol className="flex flex-col gap-2">
        {item.options.map((option, index) => {
          const probability = item.probabilities[index] ?? 0;
          return (
            <li key={option.id}>
              <button
                type="button"
                disabled={busy}
                onClick={() => onLabel(option.id)}
                className="w-full rounded border border-slate-200 p-2 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-700 disabled:cursor-not-allowed"
              >
                <div className="flex items-center gap-2 text-sm">
                  {index < 9 && (
                    <kbd className="rounded border border-slate-300 bg-slate-100 px-1.5 font-mono text-xs">
                      {index + 1}
                    </kbd>
                  )}
                  <span className="font-medium">{option.id}</span>
                  {option.description && (
                    <span className="min-w-0 flex-1 break-words text-slate-700">{option.description}</span>
                  )}
                  <span className="ml-auto shrink-0 whitespace-nowrap font-mono text-xs">{percent(probability)}</span>
                  {option.id === item.chosen && <span className="text-xs text-blue-800">chosen</span>}
                  {option.id === item.shadowChosen && <span className="text-xs text-amber-800">shadow chose</span>}
                </div>
                <div className="mt-1 h-2 rounded bg-slate-100" aria-hidden="true">
                  <div
                    className={`h-2 rounded ${option.id === item.chosen ? "bg-blue-700" : "bg-slate-400"}`}
                    style={{ width: `${Math.max(0, Math.min(1, probability)) * 100}%` }}
                  />
                </div>
              </button>
            </li>
          );
        })}
      </ol>
      <div className="mt-3 flex items-center gap-2">
        <Button type="button" size="sm" variant="secondary" disabled={busy} onClick={onSkip}>
          Skip <kbd className="font-mono">s</kbd>
        </Button>
        <span className="text-xs text-slate-600">Keys 1–9 give option 1 to 9 as the right answer; s skips.</span>
      </div>
    </Card>
  );
}

/** Decisions the queue left out because their capture object is missing or no longer holds them. */
export function UnreadableNotice({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <p className="text-sm text-amber-900" role="note">
      {count === 1 ? "1 decision was" : `${count} decisions were`} left out: {count === 1 ? "its" : "their"} capture
      object is missing or no longer holds {count === 1 ? "it" : "them"} (deleted or rewritten in the bucket). The next
      decisions are offered instead.
    </p>
  );
}

function ExportCard({ name, kind }: { name: string; kind: string | null }) {
  const [datasetName, setDatasetName] = useState(`${name} review`);
  const exporting = useExportReview(name);
  return (
    <Card title="Export to dataset">
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (kind && datasetName.trim()) exporting.mutate({ kind, name: datasetName.trim() });
        }}
      >
        <div className="w-64">
          <TextField
            label="Dataset name"
            value={datasetName}
            onChange={(event) => setDatasetName(event.target.value)}
          />
        </div>
        <Button type="submit" size="sm" disabled={!kind || !datasetName.trim() || exporting.isPending}>
          {exporting.isPending ? "Exporting…" : "Export to dataset"}
        </Button>
      </form>
      {!kind && <p className="mt-2 text-sm text-slate-600">Pick a decision kind to export its labels.</p>}
      {exporting.error && <ErrorAlert title="The labels were not exported" error={exporting.error} />}
      {exporting.data && (
        <p className="mt-2 text-sm text-slate-700" role="status">
          Stored {exporting.data.itemCount} labelled decisions as “{exporting.data.name}”.{" "}
          <Link
            href={`/evaluate?dataset=${encodeURIComponent(exporting.data.datasetId)}`}
            className="text-blue-800 underline"
          >
            Evaluate on this dataset
          </Link>
        </p>
      )}
    </Card>
  );
}

/**
 * Labelling production decisions, keyboard first: the state, question and probabilities of the next unlabelled
 * decision; a number key gives that option as the right answer, `s` skips. The labels feed the Monitoring view's
 * live accuracy and export as a dataset for the Evaluate page.
 */
export function ReviewQueueView({ name }: { name: string }) {
  const [order, setOrder] = useState<ReviewOrder>("lowest-confidence");
  const [kind, setKind] = useState<string | null>(null);
  const [done, setDone] = useState<Set<string>>(new Set());
  const [includeEvaluation, setIncludeEvaluation] = useState(false);
  const { data, error, isPending, isFetching } = useReviewQueue(name, { order, kind, includeEvaluation });
  const label = useLabelDecision(name);
  const current = data?.items.find((item) => !done.has(keyOf(item))) ?? null;
  const busy = label.isPending;

  const give = (item: ReviewItem, choice: { label: string } | { skip: true }) => {
    const key = { objectKey: item.objectKey, line: item.line, item: item.item };
    label.mutate({ ...key, ...choice }, { onSuccess: () => setDone((seen) => new Set(seen).add(keyOf(item))) });
  };

  useEffect(() => {
    if (!current) return;
    const onKey = (event: KeyboardEvent) => {
      if (busy) return;
      const ids = current.options.map((option) => option.id);
      const choice = reviewKeyChoice(
        {
          key: event.key,
          altKey: event.altKey,
          ctrlKey: event.ctrlKey,
          metaKey: event.metaKey,
          inField: typingIn(event.target),
        },
        ids,
      );
      if (!choice) return;
      event.preventDefault();
      give(current, choice);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const exportKind = kind ?? (data?.kinds.length === 1 ? (data.kinds[0]?.kind ?? null) : null);
  return (
    <>
      <PageHeader
        title={`Review queue: ${name}`}
        description="Label production decisions from the data capture: live accuracy on the Monitoring page, and datasets to evaluate on."
        actions={
          <Link href={`/endpoints/${encodeURIComponent(name)}/monitoring`} className="text-sm text-blue-800 underline">
            Back to monitoring
          </Link>
        }
      />
      <div className="flex flex-col gap-4">
        <Card>
          <div className="flex flex-wrap items-end gap-4">
            <div className="w-64">
              <SelectField
                label="Order"
                value={order}
                onChange={(event) => {
                  setOrder(event.target.value as ReviewOrder);
                  setDone(new Set());
                }}
              >
                {reviewOrders.map((id) => (
                  <option key={id} value={id}>
                    {orderLabels[id]}
                  </option>
                ))}
              </SelectField>
            </div>
            <div className="w-96">
              <SelectField
                label="Decision kind"
                value={kind ?? ""}
                onChange={(event) => {
                  setKind(event.target.value || null);
                  setDone(new Set());
                }}
              >
                <option value="">Every kind</option>
                {data?.kinds.map((entry) => (
                  <option key={entry.kind} value={entry.kind}>
                    {entry.question || entry.kind} ({entry.options.join(", ")})
                  </option>
                ))}
              </SelectField>
            </div>
            <IncludeEvaluationToggle
              checked={includeEvaluation}
              onChange={(checked) => {
                setIncludeEvaluation(checked);
                setDone(new Set());
              }}
            />
            {data && (
              <p className="text-sm text-slate-700" role="status">
                {data.unlabelled} unlabelled decision{data.unlabelled === 1 ? "" : "s"} kept (7 days)
                {isFetching ? " · looking…" : ""}
              </p>
            )}
          </div>
        </Card>
        {data && <UnreadableNotice count={data.unreadable} />}
        {error && <ErrorAlert title="The review queue did not load" error={error} />}
        {label.error && <ErrorAlert title="The label was not stored" error={label.error} />}
        {isPending && <p className="text-sm text-slate-700">Reading the captured decisions…</p>}
        {current && (
          <DecisionCard
            item={current}
            busy={busy}
            onLabel={(option) => give(current, { label: option })}
            onSkip={() => give(current, { skip: true })}
          />
        )}
        {data && !current && (
          <Card>
            <p className="text-sm text-slate-700">
              {data.unlabelled === 0
                ? "Nothing to label: every kept production decision of this order has a label."
                : "Looking for the next decisions…"}
            </p>
          </Card>
        )}
        {data && data.kinds.length > 0 && (
          <Card title="Labels so far">
            <Table caption="Labels so far by question and option set" compact>
              <TableHead plain>
                <th scope="col">Question (options)</th>
                <th scope="col">Labelled</th>
                <th scope="col">Skipped</th>
              </TableHead>
              <TableBody>
                {data.kinds.map((entry) => (
                  <tr key={entry.kind}>
                    <td>
                      {entry.question || entry.kind} ({entry.options.join(", ")})
                    </td>
                    <td className="tabular-nums">{entry.labelled}</td>
                    <td className="tabular-nums">{entry.skipped}</td>
                  </tr>
                ))}
              </TableBody>
            </Table>
            {data.recent.length > 0 && (
              <>
                <h3 className="mt-3 mb-1 text-sm font-semibold">Latest labels</h3>
                <ul className="flex flex-col gap-1 text-sm">
                  {data.recent.map((entry) => (
                    <li key={keyOf(entry)}>
                      {entry.label === null ? "skipped" : <span className="font-medium">{entry.label}</span>} (the model
                      chose {entry.chosen}) by {entry.labelledBy}, <Timestamp at={entry.labelledAt} />
                    </li>
                  ))}
                </ul>
              </>
            )}
          </Card>
        )}
        <ExportCard name={name} kind={exportKind} />
      </div>
    </>
  );
}
