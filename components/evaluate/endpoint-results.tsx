"use client";

import { useState } from "react";
import type { EndpointEvaluation } from "@/contract/evaluate/evaluations.ts";
import type { AccuracyCell } from "@/contract/evaluate/metrics.ts";
import { thresholdAdvice, thresholdForAccuracy } from "@/contract/evaluate/threshold.ts";
import { costPerThousand, hourlyPrice } from "../endpoints/endpoint-format.ts";
import { Card } from "../ui/card.tsx";
import { TextField } from "../ui/field.tsx";
import { Table, TableBody, TableHead } from "../ui/table.tsx";
import { CompareProduction } from "./compare-production.tsx";
import { ConfusionMatrix } from "./confusion-matrix.tsx";
import { CoverageChart } from "./coverage-chart.tsx";
import { decimal, latency, percent } from "./format.ts";
import { LatencyHistogram } from "./latency-histogram.tsx";
import { ReliabilityDiagram } from "./reliability-diagram.tsx";
import { TemperatureCard } from "./temperature-card.tsx";

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-md border border-slate-200 px-3 py-2">
      <dt className="text-xs text-slate-700">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

function GroupTable({ title, groups }: { title: string; groups: Record<string, AccuracyCell> }) {
  const entries = Object.entries(groups);
  if (entries.length === 0) return null;
  return (
    <Table caption={title} captionClassName="mb-1 text-left text-sm font-medium text-slate-800" size="xs" compact fit>
      <TableHead plain>
        <th scope="col">Group</th>
        <th scope="col">Correct</th>
        <th scope="col">Accuracy</th>
      </TableHead>
      <TableBody divided={false}>
        {entries.map(([group, cell]) => (
          <tr key={group}>
            <th scope="row" className="font-normal">
              {group}
            </th>
            <td className="tabular-nums">
              {cell.correct}/{cell.answered}
              {cell.failed > 0 && ` (${cell.failed} failed)`}
            </td>
            <td className="tabular-nums">{percent(cell.accuracy)}</td>
          </tr>
        ))}
      </TableBody>
    </Table>
  );
}

/** Every metric of one endpoint in a run; `completedRunId`, the run once completed, may become production's yardstick. */
export function EndpointResults({
  result,
  targetAccuracy,
  completedRunId,
}: {
  result: EndpointEvaluation;
  targetAccuracy: number;
  completedRunId: string | null;
}) {
  const { metrics, endpointName } = result;
  const [target, setTarget] = useState(String(Math.round(targetAccuracy * 1000) / 10));
  const wanted = Math.min(1, Math.max(0, Number(target) / 100));
  const picked = thresholdForAccuracy(metrics.coverage, wanted);
  const errorEntries = Object.entries(metrics.errors);
  return (
    <Card title={<span>Endpoint {endpointName}</span>}>
      <div className="flex flex-col gap-5">
        {completedRunId && <CompareProduction runId={completedRunId} endpointName={endpointName} />}
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4 lg:grid-cols-8" aria-label={`Metrics of ${endpointName}`}>
          <Stat label="Correct of answered" value={`${metrics.accuracy.correct}/${metrics.accuracy.answered}`} />
          <Stat label="Accuracy" value={percent(metrics.accuracy.accuracy)} />
          <Stat label="Chance accuracy (random pick)" value={percent(metrics.chanceAccuracy)} />
          <Stat label="Failed (no answer)" value={String(metrics.accuracy.failed)} />
          <Stat label="Brier score" value={decimal(metrics.brier)} />
          <Stat label="ECE" value={decimal(metrics.calibration.ece)} />
          <Stat label="p50" value={latency(metrics.latency.p50)} />
          <Stat label="p95" value={latency(metrics.latency.p95)} />
          <Stat label="p99" value={latency(metrics.latency.p99)} />
          <Stat label="$/hour" value={hourlyPrice(result.cost.hourlyPriceUsd)} />
          <Stat label="$ per 1,000 decisions" value={costPerThousand(result.cost.perThousandUsd)} />
        </dl>
        <p className="text-xs text-slate-600">
          Accuracy is over the items answered; items that got no answer (busy, timeout...) are counted apart. Latency is
          client-side per successful request; quantiles are nearest-rank (always an observed value). Brier is the
          multi-class sum of squared errors (0 to 2). The cost per 1,000 decisions is the instances' hourly price
          (bundled on-demand prices) over the decisions an hour this run's mean latency allows at its concurrency: what
          the endpoint costs kept as busy as this run kept it.
        </p>
        {errorEntries.length > 0 && (
          <div className="text-sm text-red-800" role="status">
            <p>Failed requests: {errorEntries.map(([kind, count]) => `${kind} ${count}`).join(", ")}</p>
            <ul className="mt-1 flex flex-col gap-1 text-xs" data-testid="error-messages">
              {metrics.errorDetails.flatMap((detail) =>
                detail.messages.map((entry) => (
                  <li key={`${detail.kind}:${entry.message}`}>
                    <details>
                      <summary>
                        {entry.count} {detail.kind}: {entry.message}
                      </summary>
                      <p className="break-all font-mono text-slate-800">
                        {entry.itemIds.join(", ")}
                        {entry.count > entry.itemIds.length && ` and ${entry.count - entry.itemIds.length} more`}
                      </p>
                    </details>
                  </li>
                )),
              )}
            </ul>
          </div>
        )}
        <div className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
          <ReliabilityDiagram
            bins={metrics.calibration.bins}
            ece={metrics.calibration.ece}
            title={`Reliability of ${endpointName}`}
          />
          <LatencyHistogram
            bins={metrics.latencyHistogram}
            summary={metrics.latency}
            title={`Latency of ${endpointName}`}
          />
          <div className="flex flex-col gap-2">
            <CoverageChart curve={metrics.coverage} picked={picked} targetAccuracy={wanted} />
            <TextField
              label="Target accuracy (%)"
              type="number"
              min={1}
              max={100}
              step="0.5"
              value={target}
              onChange={(event) => setTarget(event.target.value)}
            />
            <p className="text-sm" role="status" aria-live="polite">
              {thresholdAdvice(metrics.coverage, wanted)}
            </p>
          </div>
        </div>
        <div className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
          <ConfusionMatrix matrix={metrics.confusion} />
          <div className="flex flex-col gap-3">
            <GroupTable title="By category" groups={metrics.byCategory} />
            <GroupTable title="By tier" groups={metrics.byTier} />
          </div>
          <section aria-label="Temperature">
            <h3 className="mb-1 text-sm font-semibold">Temperature</h3>
            <TemperatureCard fit={metrics.temperature} endpointName={endpointName} />
          </section>
        </div>
      </div>
    </Card>
  );
}
