"use client";

import { backlogMetrics, type MetricSeries } from "@/contract/endpoints/metrics.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { LineChart } from "../charts/line-chart.tsx";
import { Card } from "../ui/card.tsx";
import { useEndpointMetrics } from "./endpoint-activity-queries.ts";
import { stepCorners } from "./instance-steps.ts";

const titles: Record<MetricSeries["metric"], string> = {
  Invocations: "Invocations",
  ModelLatency: "Model latency",
  Invocation4XXErrors: "4XX errors",
  Invocation5XXErrors: "5XX errors",
  ApproximateBacklogSize: "Backlog (requests)",
  ApproximateAgeOfOldestRequest: "Oldest request age",
};

/** CloudWatch reports ModelLatency in microseconds; people read milliseconds. */
function displayed(series: MetricSeries) {
  if (series.unit === "Seconds") return { unit: "s", points: series.points };
  if (series.unit !== "Microseconds") return { unit: "count", points: series.points };
  return { unit: "ms", points: series.points.map((point) => ({ at: point.at, value: point.value / 1000 })) };
}

/**
 * The backlog charts are shown for asynchronous endpoints only (real-time endpoints publish no backlog); the
 * instance count of each variant (from its scaling activities) for every endpoint, as steps up to now.
 */
export function MetricsPanel({ name, asynchronous }: { name: string; asynchronous: boolean }) {
  const { data, error, isPending } = useEndpointMetrics(name);
  return (
    <Card title="Metrics (CloudWatch)">
      {error && <ErrorAlert title="Metrics unavailable" error={error} />}
      {isPending && <p className="text-sm text-slate-700">Loading metrics…</p>}
      {data && (
        <>
          <p className="mb-2 text-xs text-slate-700">
            {new Date(data.from).toLocaleString()} to {new Date(data.to).toLocaleString()}, {data.periodSeconds / 60}
            -minute periods, variant {data.variantName}.
          </p>
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
            {data.series
              .filter((series) => asynchronous || !backlogMetrics.includes(series.metric))
              .map((series) => {
                const { unit, points } = displayed(series);
                return <LineChart key={series.metric} title={titles[series.metric]} unit={unit} points={points} />;
              })}
            {data.instances.map((series) => (
              <LineChart
                key={`instances-${series.variantName}`}
                title={data.instances.length > 1 ? `Instances (${series.variantName})` : "Instances"}
                unit="count"
                points={stepCorners(series.points, new Date(Math.min(Date.now(), Date.parse(data.to))).toISOString())}
              />
            ))}
          </div>
        </>
      )}
    </Card>
  );
}
