"use client";

import { useState } from "react";
import { ErrorAlert } from "../api/error-text.tsx";
import { LineChart } from "../charts/line-chart.tsx";
import { Button } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { useEndpointMetrics } from "./endpoint-activity-queries.ts";
import { metricCharts } from "./metric-charts.ts";
import { defaultMetricRange, type MetricRangeId, metricRange, metricRanges } from "./metric-ranges.ts";

/**
 * The endpoint's CloudWatch metrics over a window the reader picks (1 h to 1 w): the series its kind publishes and
 * each variant's instance count (from its scaling activities), on a time axis in the reader's time zone.
 */
export function MetricsPanel({ name, asynchronous }: { name: string; asynchronous: boolean }) {
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
