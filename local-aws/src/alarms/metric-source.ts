import type { MetricDatapoints } from "../metric-datapoints.ts";
import type { MetricsStore } from "../metrics-store.ts";
import { SAGEMAKER_NAMESPACE, statisticAvailable } from "./sagemaker-endpoint-metrics.ts";
import { periodStart, periodValues, sageMakerMetrics } from "./sagemaker-metrics.ts";

export interface MetricSeriesQuery {
  namespace: string;
  metricName: string;
  dimensions: Record<string, string>;
  /** Undefined: any unit. */
  unit?: string;
  /** The statistic asked for: a metric CloudWatch has no such statistic of has no values. */
  statistic: string;
  periodMs: number;
  /** Periods start at alignMs + k × periodMs. */
  alignMs: number;
}

/**
 * Local CloudWatch's one view of a metric: the datapoints local services publish (asynchronous endpoints' backlog and
 * per-request metrics) and the SageMaker invocation metrics derived from recorded invocation samples. GetMetricData
 * and the alarm engine both read through it, so an alarm sees exactly what a metric query shows, and neither sees a
 * statistic CloudWatch does not have (sagemaker-endpoint-metrics.ts).
 */
export class MetricSource {
  constructor(
    private readonly samples: MetricsStore,
    private readonly published: MetricDatapoints,
  ) {}

  /** The values of one metric in [fromMs, toMs), by period start. */
  periodValues(query: MetricSeriesQuery, fromMs: number, toMs: number): Map<number, number[]> {
    const buckets = new Map<number, number[]>();
    const add = (start: number, values: number[]) => {
      const bucket = buckets.get(start);
      if (bucket) bucket.push(...values);
      else buckets.set(start, [...values]);
    };
    const { namespace, metricName, dimensions, unit, periodMs, alignMs } = query;
    if (!statisticAvailable(namespace, query.statistic)) return buckets;
    for (const point of this.published.read(namespace, metricName, dimensions, fromMs, toMs)) {
      if (unit !== undefined && point.unit !== unit) continue;
      add(periodStart(alignMs, periodMs, point.timestamp), [point.value]);
    }
    const derived = sageMakerMetrics[metricName];
    const endpoint = dimensions.EndpointName;
    if (namespace === SAGEMAKER_NAMESPACE && derived && endpoint && (unit === undefined || unit === derived.unit)) {
      const sampleQuery = { metricName, endpoint, variant: dimensions.VariantName ?? null, periodMs, alignMs };
      for (const [start, values] of periodValues(this.samples, sampleQuery, fromMs, toMs)) add(start, values);
    }
    return buckets;
  }
}
