"use client";

import { ErrorAlert } from "../api/error-text.tsx";
import { LineChart } from "../charts/line-chart.tsx";
import { Card } from "../ui/card.tsx";
import { useEndpointMetrics } from "./endpoint-activity-queries.ts";

export function MetricsPanel({ name }: { name: string }) {
  const { data, error, isPending } = useEndpointMetrics(name);
  return (
    <Card title="Metrics (CloudWatch)">
      {error && <ErrorAlert title="Metrics unavailable" error={error} />}
      {isPending && <p className="text-sm text-slate-700">Loading metrics…</p>}
      {data && (
        <div className="grid gap-4 sm:grid-cols-2">
          {data.series.map((series) => (
            <LineChart
              key={series.metric}
              title={series.label ?? series.metric}
              unit={series.unit}
              points={series.points}
            />
          ))}
        </div>
      )}
    </Card>
  );
}
