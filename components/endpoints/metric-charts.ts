import { type EndpointMetricsResponse, type MetricSeries, publishedBy } from "@/contract/endpoints/metrics.ts";
import type { ChartPoint } from "../charts/line-chart.tsx";
import { stepCorners } from "./instance-steps.ts";

export interface MetricChart {
  key: string;
  title: string;
  unit: string;
  points: ChartPoint[];
}

const titles: Record<MetricSeries["metric"], string> = {
  Invocations: "Invocations",
  InvocationsProcesssed: "Invocations processed",
  ModelLatency: "Model latency",
  Invocation4XXErrors: "4XX errors",
  Invocation5XXErrors: "5XX errors",
  ApproximateBacklogSize: "Backlog (requests)",
  ApproximateAgeOfOldestRequest: "Oldest request age",
};

/**
 * A series in the unit a person reads: CloudWatch's microseconds of ModelLatency as milliseconds, or as seconds
 * once the largest point reaches a second; seconds as seconds, or minutes from two minutes on; counts as counts.
 */
export function readableSeries(series: Pick<MetricSeries, "unit" | "points">): { unit: string; points: ChartPoint[] } {
  const max = Math.max(0, ...series.points.map((point) => point.value));
  const scaled = (unit: string, divisor: number) => ({
    unit,
    points: series.points.map((point) => ({ at: point.at, value: point.value / divisor })),
  });
  if (series.unit === "Microseconds") return max >= 1_000_000 ? scaled("s", 1_000_000) : scaled("ms", 1_000);
  if (series.unit === "Seconds") return max >= 120 ? scaled("min", 60) : scaled("s", 1);
  return scaled("count", 1);
}

/**
 * The charts of the panel: each series the endpoint's kind publishes (an asynchronous endpoint counts its
 * invocations in InvocationsProcesssed and has a backlog; a real-time one counts them in Invocations), then each
 * variant's instance count as steps up to `now`.
 */
export function metricCharts(data: EndpointMetricsResponse, asynchronous: boolean, now: number): MetricChart[] {
  const series = data.series
    .filter((one) => publishedBy(asynchronous, one.metric))
    .map((one) => ({ key: one.metric, title: titles[one.metric], ...readableSeries(one) }));
  const until = new Date(Math.min(now, Date.parse(data.to))).toISOString();
  const instances = data.instances.map((one) => ({
    key: `instances-${one.variantName}`,
    title: data.instances.length > 1 ? `Instances (${one.variantName})` : "Instances",
    unit: "count",
    points: stepCorners(one.points, until),
  }));
  return [...series, ...instances];
}
