/**
 * The windows the metrics panel offers, each with a CloudWatch period that keeps a chart at about 40 to 170 points
 * (one-minute data is kept 15 days, so every window here has it).
 */
export const metricRanges = [
  { id: "1h", label: "1 h", minutes: 60, periodSeconds: 60 },
  { id: "3h", label: "3 h", minutes: 180, periodSeconds: 300 },
  { id: "1d", label: "1 d", minutes: 1440, periodSeconds: 900 },
  { id: "1w", label: "1 w", minutes: 10080, periodSeconds: 3600 },
] as const;

export type MetricRange = (typeof metricRanges)[number];
export type MetricRangeId = MetricRange["id"];

export const defaultMetricRange: MetricRangeId = "3h";

export function metricRange(id: MetricRangeId): MetricRange {
  return metricRanges.find((range) => range.id === id) ?? metricRanges[1];
}
