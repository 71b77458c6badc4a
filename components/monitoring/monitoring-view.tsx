"use client";

import Link from "next/link";
import { useId, useState } from "react";
import { type MonitoringWindow, monitoringWindowIds } from "@/contract/endpoints/monitoring.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { HealthBadge } from "../endpoints/health-badge.tsx";
import { Button } from "../ui/button.tsx";
import { Card, PageHeader } from "../ui/card.tsx";
import { SelectField, TextField } from "../ui/field.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { DriftCard } from "./drift-card.tsx";
import { IncludeEvaluationToggle } from "./include-evaluation-toggle.tsx";
import { KindDetails } from "./kind-details.tsx";
import { KindPager } from "./kind-pager.tsx";
import { kindRow } from "./kind-rows.ts";
import { KindsTable, sourcesText } from "./kinds-table.tsx";
import { shareText } from "./monitoring-figures.ts";
import { useEndpointDrift, useEndpointMonitoring, useSetEndpointThreshold } from "./monitoring-queries.ts";
import { RealisedCard } from "./realised-card.tsx";
import { useRealisedQuality } from "./realised-queries.ts";
import { ShadowCard } from "./shadow-card.tsx";
import { ShadowTestActions, StartShadowTest } from "./shadow-test-controls.tsx";

const windowLabels: Record<MonitoringWindow, string> = { "1h": "1 h", "6h": "6 h", "24h": "24 h", "7d": "7 d" };

/** A threshold as typed: a number from 0.01 to 0.99 in hundredths, or what is wrong with it. */
function readThreshold(text: string): { value: number } | { error: string } {
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value) || value < 0.01 || value > 0.99) {
    return { error: "Enter a probability from 0.01 to 0.99." };
  }
  if (Math.abs(value * 100 - Math.round(value * 100)) > 1e-9) return { error: "Use at most two decimals." };
  return { value };
}

/**
 * How an endpoint decides in production, read from its data capture: one row per decision kind (question and option
 * set) with its volume, top option, fallback rate, live accuracy, drift and flags; a row opens the kind's charts
 * (decisions over time, the chosen options' shares, the top probability's distribution, the fallback rate, latency).
 */
export function MonitoringView({ name }: { name: string }) {
  // null: the data's span, the window the server picks to hold every recent decision.
  const [windowId, setWindowId] = useState<MonitoringWindow | null>(null);
  const [includeEvaluation, setIncludeEvaluation] = useState(false);
  const [openKinds, setOpenKinds] = useState<ReadonlySet<string>>(new Set());
  const detailsPrefix = useId();
  // null until a person types or applies one: the endpoint's stored threshold (or the default) is read and shown.
  const [typedText, setThresholdText] = useState<string | null>(null);
  const [threshold, setThreshold] = useState<number | null>(null);
  const [variant, setVariant] = useState<string | null>(null);
  const [variantsSeen, setVariantsSeen] = useState<string[]>([]);
  const [searchText, setSearchText] = useState("");
  const [kinds, setKinds] = useState({ search: "", page: 1 });
  const { data, error, isPending } = useEndpointMonitoring(name, {
    window: windowId,
    threshold,
    variant,
    kinds,
    includeEvaluation,
  });
  const drift = useEndpointDrift(name).data;
  const realised = useRealisedQuality(name, "7d").data;
  const detailsId = (kind: string) => `${detailsPrefix}-kind-${kind}`;
  const rows = (data?.kinds ?? []).map((kind) =>
    kindRow(kind, {
      drift: drift?.kinds.find((entry) => entry.kind === kind.kind),
      realised: realised?.kinds.find((entry) => entry.kind === kind.kind),
    }),
  );
  const toggleKind = (kind: string) =>
    setOpenKinds((shown) => {
      const next = new Set(shown);
      if (!next.delete(kind)) next.add(kind);
      return next;
    });
  const thresholdText = typedText ?? (data ? data.threshold.toFixed(2) : "");
  const typed = readThreshold(thresholdText);
  const keepThreshold = useSetEndpointThreshold(name);
  const stored = data?.storedThreshold ?? null;
  const variants = [...new Set([...variantsSeen, ...(data?.variants.map((entry) => entry.variant) ?? [])])].sort();
  if (variants.length !== variantsSeen.length) setVariantsSeen(variants);
  return (
    <>
      <PageHeader
        title={`Monitoring: ${name}`}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <span>Decisions as the endpoint's data capture recorded them.</span>
            <HealthBadge name={name} />
          </span>
        }
        actions={
          <div className="flex gap-4">
            <Link href={`/endpoints/${encodeURIComponent(name)}/review`} className="text-sm text-blue-800 underline">
              Review queue
            </Link>
            <Link href={`/endpoints/${encodeURIComponent(name)}`} className="text-sm text-blue-800 underline">
              Back to the endpoint
            </Link>
          </div>
        }
      />
      <div className="flex flex-col gap-4">
        <Card>
          <form
            className="flex flex-wrap items-end gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              if ("value" in typed) setThreshold(typed.value);
            }}
          >
            <fieldset className="flex flex-wrap items-center gap-1">
              <legend className="mb-1 text-sm font-medium text-slate-800">Window</legend>
              {[null, ...monitoringWindowIds].map((id) => (
                <Button
                  key={id ?? "data-span"}
                  type="button"
                  size="sm"
                  variant={id === windowId ? "primary" : "secondary"}
                  aria-pressed={id === windowId}
                  onClick={() => {
                    setWindowId(id);
                    setKinds((shown) => ({ ...shown, page: 1 }));
                  }}
                >
                  {id === null ? "Data span" : windowLabels[id]}
                </Button>
              ))}
            </fieldset>
            <div className="w-48">
              <TextField
                label="Decision threshold"
                hint="Below it, a decision falls back."
                inputMode="decimal"
                value={thresholdText}
                error={"error" in typed ? typed.error : undefined}
                onChange={(event) => setThresholdText(event.target.value)}
                onBlur={() => "value" in typed && setThreshold(typed.value)}
              />
            </div>
            {variants.length > 1 && (
              <div className="w-48">
                <SelectField
                  label="Variant"
                  value={variant ?? ""}
                  onChange={(event) => setVariant(event.target.value || null)}
                >
                  <option value="">All variants</option>
                  {variants.map((entry) => (
                    <option key={entry} value={entry}>
                      {entry}
                    </option>
                  ))}
                </SelectField>
              </div>
            )}
            <IncludeEvaluationToggle
              checked={includeEvaluation}
              onChange={(checked) => {
                setIncludeEvaluation(checked);
                setKinds((shown) => ({ ...shown, page: 1 }));
              }}
            />
            <Button type="submit" size="sm" variant="secondary">
              Apply
            </Button>
            <Button
              type="button"
              size="sm"
              variant="secondary"
              disabled={!("value" in typed) || typed.value === stored?.threshold || keepThreshold.isPending}
              onClick={() =>
                "value" in typed &&
                keepThreshold.mutate(typed.value, {
                  onSuccess: () => {
                    setThreshold(null);
                    setThresholdText(null);
                  },
                })
              }
            >
              Keep as this endpoint's threshold
            </Button>
          </form>
          <p className="mt-2 text-xs text-slate-700" data-testid="stored-threshold">
            {stored ? (
              <>
                This endpoint's threshold is {stored.threshold.toFixed(2)}, kept by {stored.setBy}{" "}
                <Timestamp at={stored.setAt} />.
              </>
            ) : (
              "No threshold is kept for this endpoint yet; the view reads against 0.50 until one is."
            )}
          </p>
          {keepThreshold.error && <ErrorAlert title="Threshold not kept" error={keepThreshold.error} />}
        </Card>
        {error && <ErrorAlert title="Monitoring unavailable" error={error} />}
        {isPending && <p className="text-sm text-slate-700">Reading captured decisions…</p>}
        {data && (
          <>
            <Card title="Overview">
              <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-5" data-testid="monitoring-totals">
                <div>
                  <dt className="text-slate-700">Decisions</dt>
                  <dd className="text-lg font-semibold tabular-nums" data-testid="monitoring-decisions">
                    {data.decisions}
                  </dd>
                </div>
                <div>
                  <dt className="text-slate-700">Below {data.threshold.toFixed(2)} (fallback)</dt>
                  <dd className="text-lg font-semibold tabular-nums" data-testid="monitoring-below">
                    {shareText(data.belowThreshold, data.decisions)} ({data.belowThreshold})
                  </dd>
                </div>
                <div>
                  <dt className="text-slate-700">Decision kinds</dt>
                  <dd className="text-lg font-semibold tabular-nums">{data.kindPage.total}</dd>
                </div>
                <div>
                  <dt className="text-slate-700">By source</dt>
                  <dd className="tabular-nums" data-testid="monitoring-sources">
                    {sourcesText(data.sources)}
                  </dd>
                </div>
                <div>
                  <dt className="text-slate-700">Variants</dt>
                  <dd className="tabular-nums">
                    {data.variants.map((entry) => `${entry.variant}: ${entry.decisions}`).join(", ") || "–"}
                  </dd>
                </div>
              </dl>
              <p className="mt-3 text-xs text-slate-700" data-testid="monitoring-window">
                {data.windowChosenBy === "data-span"
                  ? data.dataSpan
                    ? `Data span: the ${windowLabels[data.window]} window, the smallest that holds every decision of the last 7 days. `
                    : `Data span: no decisions in the last 7 days, so the ${windowLabels[data.window]} window. `
                  : ""}
                {data.includeEvaluation ? "Evaluation traffic counted. " : "Evaluation traffic left out. "}
                <Timestamp at={data.from} /> to <Timestamp at={data.to} />, {data.intervalSeconds / 60}-minute
                intervals. From {data.source.destination ?? "no capture folder"}: {data.source.objectsRead} objects read
                {data.source.newObjects > 0 ? ` (${data.source.newObjects} new)` : ""}
                {data.source.unreadableRecords > 0
                  ? `, ${data.source.unreadableRecords} records that are not decisions skipped`
                  : ""}
                {data.source.moreToRead ? "; reading more…" : "."}
              </p>
            </Card>
            {data.kindPage.total > 0 && (
              <Card title="Decision kinds">
                <form
                  className="mb-3 flex flex-wrap items-end gap-3"
                  onSubmit={(event) => {
                    event.preventDefault();
                    setKinds({ search: searchText.trim(), page: 1 });
                  }}
                >
                  <div className="w-full max-w-96">
                    <TextField
                      label="Find decision kinds by question"
                      value={searchText}
                      maxLength={200}
                      onChange={(event) => setSearchText(event.target.value)}
                    />
                  </div>
                  <Button type="submit" size="sm" variant="secondary">
                    Find
                  </Button>
                </form>
                <KindsTable rows={rows} open={openKinds} detailsId={detailsId} onToggle={toggleKind} />
                <div className="mt-3">
                  <KindPager
                    kindPage={data.kindPage}
                    shown={data.kinds.length}
                    onPage={(page) => setKinds((shown) => ({ ...shown, page }))}
                  />
                </div>
              </Card>
            )}
            {data.kindPage.total === 0 && (
              <Card>
                <p className="text-sm text-slate-700">
                  No captured decisions in this window. Turn data capture on when you deploy or update the endpoint,
                  then send it decisions.
                </p>
              </Card>
            )}
            {data.kinds
              .filter((kind) => openKinds.has(kind.kind))
              .map((kind) => (
                <KindDetails key={kind.kind} kind={kind} window={data} id={detailsId(kind.kind)} />
              ))}
            {data.shadow ? (
              <ShadowCard comparison={data.shadow} actions={<ShadowTestActions name={name} />} />
            ) : (
              <StartShadowTest name={name} />
            )}
            <DriftCard name={name} kinds={data.kinds} window={{ from: data.from, to: data.to }} />
            <RealisedCard name={name} />
          </>
        )}
      </div>
    </>
  );
}
