import { quantileOf } from "@decision-console/adapter/contract";
import type { MetricDatapoints } from "../metric-datapoints.ts";
import type { InvocationSample, MetricsStore } from "../metrics-store.ts";
import { AwsError } from "../wire/aws-error.ts";
import type { JsonService } from "../wire/json-rpc.ts";

interface MetricQuery {
  Id?: string;
  Label?: string;
  ReturnData?: boolean;
  MetricStat?: {
    Metric?: { Namespace?: string; MetricName?: string; Dimensions?: { Name?: string; Value?: string }[] };
    Period?: number;
    Stat?: string;
  };
}

/** The SageMaker endpoint invocation metrics the console charts; each maps an invocation sample to a value. */
const metricValues: Record<string, (sample: InvocationSample) => number | null> = {
  Invocations: () => 1,
  Invocation4XXErrors: (s) => (s.status >= 400 && s.status < 500 ? 1 : 0),
  Invocation5XXErrors: (s) => (s.status >= 500 ? 1 : 0),
  InvocationModelErrors: (s) => (s.status === 424 ? 1 : 0),
  ModelLatency: (s) => s.modelLatencyUs,
};

function statistic(values: number[], stat: string): number {
  if (stat === "Sum") return values.reduce((a, b) => a + b, 0);
  if (stat === "SampleCount") return values.length;
  if (stat === "Average") return values.reduce((a, b) => a + b, 0) / values.length;
  if (stat === "Maximum") return Math.max(...values);
  if (stat === "Minimum") return Math.min(...values);
  const percentile = /^p(\d+(?:\.\d+)?)$/.exec(stat);
  if (percentile) return quantileOf(values, Number(percentile[1]) / 100) ?? 0;
  throw new AwsError("InvalidParameterValue", `The statistic ${stat} is not supported by the local control plane.`);
}

function epochMs(value: unknown, field: string): number {
  if (typeof value !== "number") throw new AwsError("MissingParameter", `The parameter ${field} must be specified.`);
  return value * 1000;
}

/**
 * CloudWatch GetMetricData (AWS JSON 1.0, query-compatible) over the local invocation samples and the datapoints
 * local services publish (asynchronous endpoints' backlog and per-request metrics).
 */
export function cloudWatchService(metrics: MetricsStore, published: MetricDatapoints): JsonService {
  return {
    target: "GraniteServiceVersion20100801",
    signingName: "monitoring",
    version: "1.0",
    queryCompatible: true,
    operations: {
      GetMetricData(input) {
        const from = epochMs(input.StartTime, "StartTime");
        const to = epochMs(input.EndTime, "EndTime");
        if (to <= from)
          throw new AwsError("InvalidParameterValue", "The parameter StartTime must be less than EndTime.");
        const queries = (input.MetricDataQueries ?? []) as MetricQuery[];
        if (!Array.isArray(queries) || queries.length === 0) {
          throw new AwsError("MissingParameter", "The parameter MetricDataQueries must be specified.");
        }
        const descending = input.ScanBy !== "TimestampAscending";
        const results = queries
          .filter((query) => query.ReturnData !== false)
          .map((query) => {
            const stat = query.MetricStat;
            const metric = stat?.Metric;
            if (!stat || !metric?.MetricName || !stat.Period || !stat.Stat) {
              throw new AwsError(
                "InvalidParameterValue",
                `Query ${query.Id}: the local control plane answers MetricStat queries (Metric, Period, Stat) only.`,
              );
            }
            const dims = Object.fromEntries((metric.Dimensions ?? []).map((d) => [d.Name ?? "", d.Value ?? ""]));
            const value = metricValues[metric.MetricName];
            const endpoint = dims.EndpointName;
            const points = published.read(metric.Namespace ?? "", metric.MetricName, dims, from, to);
            if (metric.Namespace === "AWS/SageMaker" && value && endpoint) {
              for (const sample of metrics.samples(endpoint, dims.VariantName ?? null, from, to)) {
                const v = value(sample);
                if (v !== null) points.push({ timestamp: sample.timestamp, value: v });
              }
            }
            const period = stat.Period * 1000;
            const buckets = new Map<number, number[]>();
            for (const point of points) {
              const start = from + Math.floor((point.timestamp - from) / period) * period;
              buckets.set(start, [...(buckets.get(start) ?? []), point.value]);
            }
            const starts = [...buckets.keys()].sort((a, b) => (descending ? b - a : a - b));
            const timestamps = starts.map((start) => start / 1000);
            const statName = stat.Stat;
            const values = starts.map((start) => statistic(buckets.get(start) ?? [], statName));
            return {
              Id: query.Id,
              Label: query.Label ?? metric.MetricName,
              Timestamps: timestamps,
              Values: values,
              StatusCode: "Complete",
            };
          });
        return { MetricDataResults: results, Messages: [] };
      },
    },
  };
}
