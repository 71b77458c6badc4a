import type { InvocationSample, MetricsStore } from "../metrics-store.ts";
import { PERCENTILE_PATTERN, type RealTimeEndpointMetric } from "./sagemaker-endpoint-metrics.ts";

/** A SageMaker endpoint invocation metric as local CloudWatch derives it from one invocation sample. */
interface SageMakerMetric {
  unit: "Count" | "Microseconds";
  value: (sample: InvocationSample) => number | null;
}

const isError = (low: number, high: number) => (s: InvocationSample) => (s.status >= low && s.status <= high ? 1 : 0);

/**
 * The `AWS/SageMaker` invocation metrics of real-time endpoints, derived from the InvokeEndpoint calls local mode
 * records, as AWS defines them: every invocation counts once in Invocations; 4XX and 5XX count the model's answers by
 * class; InvocationModelErrors counts every invocation whose model did not answer 2XX (an unreachable container
 * included); ModelLatency is in microseconds. (Asynchronous endpoints publish theirs as datapoints.)
 */
export const sageMakerMetrics: Partial<Record<string, SageMakerMetric>> &
  Record<RealTimeEndpointMetric, SageMakerMetric> = {
  Invocations: { unit: "Count", value: () => 1 },
  Invocation4XXErrors: { unit: "Count", value: isError(400, 499) },
  Invocation5XXErrors: { unit: "Count", value: isError(500, 599) },
  InvocationModelErrors: { unit: "Count", value: (s) => (s.status < 200 || s.status > 299 ? 1 : 0) },
  ModelLatency: { unit: "Microseconds", value: (s) => s.modelLatencyUs },
};

/** A statistic over one period's values, or null when `stat` is not one local CloudWatch computes. */
export function statistic(values: readonly number[], stat: string): number | null {
  if (stat === "Sum") return values.reduce((a, b) => a + b, 0);
  if (stat === "SampleCount") return values.length;
  if (stat === "Average") return values.reduce((a, b) => a + b, 0) / values.length;
  if (stat === "Maximum") return Math.max(...values);
  if (stat === "Minimum") return Math.min(...values);
  if (PERCENTILE_PATTERN.test(stat)) return percentile(values, Number(stat.slice(1)));
  return null;
}

/**
 * CloudWatch's `pNN` statistic ("CloudWatch statistics definitions": the value below which NN% of the data points
 * fall), read as the nearest rank: the smallest sample at or above which NN% of the samples lie, so p100 is the
 * maximum and every answer is a sample that was published.
 */
export function percentile(values: readonly number[], nn: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((nn / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}

/** The start of the period holding `timestampMs`, for periods that start at `alignMs` + k × period. */
export function periodStart(alignMs: number, periodMs: number, timestampMs: number): number {
  return alignMs + Math.floor((timestampMs - alignMs) / periodMs) * periodMs;
}

/** The values of one metric in [fromMs, toMs), bucketed by periods that start at `alignMs` + k × period. */
export function periodValues(
  metrics: MetricsStore,
  query: { metricName: string; endpoint: string; variant: string | null; periodMs: number; alignMs: number },
  fromMs: number,
  toMs: number,
): Map<number, number[]> {
  const metric = sageMakerMetrics[query.metricName];
  const buckets = new Map<number, number[]>();
  if (!metric) return buckets;
  for (const sample of metrics.samples(query.endpoint, query.variant, fromMs, toMs)) {
    const value = metric.value(sample);
    if (value === null) continue;
    const start = periodStart(query.alignMs, query.periodMs, sample.timestamp);
    const bucket = buckets.get(start);
    if (bucket) bucket.push(value);
    else buckets.set(start, [value]);
  }
  return buckets;
}
