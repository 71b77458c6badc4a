"use client";

import { useState } from "react";
import { ErrorAlert } from "../api/error-text.tsx";
import { LineChart } from "../charts/line-chart.tsx";
import { readableNumber } from "../charts/readable-number.ts";
import { Button } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { useEndpointMetrics } from "./endpoint-activity-queries.ts";
import { costPerThousand, hourlyPrice } from "./endpoint-format.ts";
import { metricCharts } from "./metric-charts.ts";
import { defaultMetricRange, type MetricRangeId, metricRange, metricRanges } from "./metric-ranges.ts";
import { type ServedCost, servedCost } from "./served-cost.ts";

/** The window's cost per 1,000 decisions beside the endpoint's $/hour, with what it was computed from. */
function ServedCostLine({ cost, hourlyPriceUsd }: { cost: ServedCost; hourlyPriceUsd: number | null }) {
  return (
    <p className="mb-2 text-sm text-slate-800" data-testid="served-cost">
      <span className="font-medium">{costPerThousand(cost.perThousandUsd)} per 1,000 decisions</span> over this window
      at {hourlyPrice(hourlyPriceUsd)}/hour: {readableNumber(cost.decisions)} decisions, {cost.instanceHours.toFixed(2)}{" "}
      instance-hours at {hourlyPrice(cost.instanceHourPriceUsd)} each
      {cost.perThousandUsd === null && (cost.decisions === 0 ? " (no decisions yet)" : " (no bundled price)")}.
    </p>
  );
}

/**
 * The endpoint's CloudWatch metrics over a window the reader picks (1 h to 1 w): the series its kind publishes and
 * each variant's instance count (from its scaling activities), on a time axis in the reader's time zone.
 */
export function MetricsPanel({
  name,
  asynchronous,
  serving,
  hourlyPriceUsd,
}: {
  name: string;
  asynchronous: boolean;
  serving: { instanceType: string | null; instanceCount: number | null };
  hourlyPriceUsd: number | null;
}) {
  const [rangeId, setRangeId] = useState<MetricRangeId>(defaultMetricRange);
  const range = metricRange(rangeId);
  const { data, error, isPending } = useEndpointMetrics(name, range);
  return (
    <Card title="Metrics (CloudWatch)">
      <fieldset className="mb-2 flex flex-wrap items-center gap-1">
        <legend className="sr-only">Time range</legend>
        <span className="mr-1 text-xs text-slate-700" aria-hidden="true">
          Range
        </span>
        {metricRanges.map((option) => (
          <Button
            key={option.id}
            size="sm"
            variant={option.id === rangeId ? "primary" : "secondary"}
            aria-pressed={option.id === rangeId}
            onClick={() => setRangeId(option.id)}
          >
            {option.label}
          </Button>
        ))}
      </fieldset>
      {error && <ErrorAlert title="Metrics unavailable" error={error} />}
      {isPending && <p className="text-sm text-slate-700">Loading metrics…</p>}
      {data && (
        <>
          <p className="mb-2 text-xs text-slate-700">
            <Timestamp at={data.from} /> to <Timestamp at={data.to} />,{" "}
            {data.periodSeconds >= 3600 ? `${data.periodSeconds / 3600}-hour` : `${data.periodSeconds / 60}-minute`}{" "}
            periods, variant {data.variantName}.
          </p>
          <ServedCostLine cost={servedCost(data, serving, asynchronous, Date.now())} hourlyPriceUsd={hourlyPriceUsd} />
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
            {metricCharts(data, asynchronous, Date.now()).map((chart) => (
              <LineChart
                key={chart.key}
                title={chart.title}
                unit={chart.unit}
                points={chart.points}
                from={data.from}
                to={data.to}
              />
            ))}
          </div>
        </>
      )}
    </Card>
  );
}
