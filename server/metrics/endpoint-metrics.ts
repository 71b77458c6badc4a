import { type CloudWatchClient, GetMetricDataCommand, type MetricDataQuery } from "@aws-sdk/client-cloudwatch";
import type { EndpointMetrics, MetricName, MetricSeries, MetricsQuery } from "../../contract/endpoints/metrics.ts";
import { awsCall } from "../aws/errors.ts";

type MetricSpec = Pick<MetricSeries, "stat" | "unit"> & {
  name: MetricName;
  /** Per variant, or (the asynchronous backlog) per endpoint. */
  per: "variant" | "endpoint";
};

const metrics: MetricSpec[] = [
  { name: "Invocations", stat: "Sum", unit: "Count", per: "variant" },
  { name: "ModelLatency", stat: "Average", unit: "Microseconds", per: "variant" },
  { name: "Invocation4XXErrors", stat: "Sum", unit: "Count", per: "variant" },
  { name: "Invocation5XXErrors", stat: "Sum", unit: "Count", per: "variant" },
  { name: "ApproximateBacklogSize", stat: "Average", unit: "Count", per: "endpoint" },
  { name: "ApproximateAgeOfOldestRequest", stat: "Maximum", unit: "Seconds", per: "endpoint" },
  { name: "InvocationsProcesssed", stat: "Sum", unit: "Count", per: "variant" },
];

export function metricQueries(endpointName: string, variantName: string, periodSeconds: number): MetricDataQuery[] {
  return metrics.map((metric, index) => ({
    Id: `m${index}`,
    Label: metric.name,
    ReturnData: true,
    MetricStat: {
      Metric: {
        Namespace: "AWS/SageMaker",
        MetricName: metric.name,
        Dimensions: [
          { Name: "EndpointName", Value: endpointName },
          ...(metric.per === "variant" ? [{ Name: "VariantName", Value: variantName }] : []),
        ],
      },
      Period: periodSeconds,
      Stat: metric.stat,
    },
  }));
}

/**
 * Invocations, ModelLatency, 4XX and 5XX for one variant, and an asynchronous endpoint's backlog and processed
 * invocations (it publishes no Invocations), over the last
 * `minutes` up to now, oldest point first, following NextToken.
 */
export async function endpointMetrics(
  cloudWatch: CloudWatchClient,
  endpointName: string,
  variantName: string,
  query: MetricsQuery,
  now: Date = new Date(),
): Promise<EndpointMetrics> {
  // The window ends at the end of the period now falls in, so the latest invocations (the current, still open
  // period) are charted; both ends sit on period boundaries, so each point keeps its timestamp between refreshes.
  const period = query.periodSeconds * 1000;
  const to = new Date(Math.ceil((now.getTime() + 1) / period) * period);
  const from = new Date(Math.floor((to.getTime() - query.minutes * 60_000) / period) * period);
  const points = new Map<string, { at: string; value: number }[]>();
  let nextToken: string | undefined;
  do {
    const page = await awsCall(`metrics of "${endpointName}"`, () =>
      cloudWatch.send(
        new GetMetricDataCommand({
          MetricDataQueries: metricQueries(endpointName, variantName, query.periodSeconds),
          StartTime: from,
          EndTime: to,
          ScanBy: "TimestampAscending",
          NextToken: nextToken,
        }),
      ),
    );
    for (const result of page.MetricDataResults ?? []) {
      const list = points.get(result.Id ?? "") ?? [];
      (result.Timestamps ?? []).forEach((timestamp, i) => {
        list.push({ at: timestamp.toISOString(), value: result.Values?.[i] ?? 0 });
      });
      points.set(result.Id ?? "", list);
    }
    nextToken = page.NextToken;
  } while (nextToken);
  const series: MetricSeries[] = metrics.map((metric, index) => ({
    metric: metric.name,
    stat: metric.stat,
    unit: metric.unit,
    points: (points.get(`m${index}`) ?? []).sort((a, b) => a.at.localeCompare(b.at)),
  }));
  return {
    endpointName,
    variantName,
    from: from.toISOString(),
    to: to.toISOString(),
    periodSeconds: query.periodSeconds,
    series,
  };
}
