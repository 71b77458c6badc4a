import { type CloudWatchClient, GetMetricDataCommand } from "@aws-sdk/client-cloudwatch";
import type { ShadowCalls } from "../../contract/endpoints/monitoring.ts";
import { awsCall } from "../aws/errors.ts";

/**
 * Per-variant metrics a shadow variant publishes like a production one. A shadow's failed copy leaves no capture
 * record, so its errors are known only from these; Invocation4XXErrors and Invocation5XXErrors count them.
 */
const COUNTED = ["Invocations", "Invocation4XXErrors", "Invocation5XXErrors"] as const;

/** GetMetricData's period is a multiple of 60 seconds: one period spans the whole window. */
function windowPeriodSeconds(fromMs: number, toMs: number): number {
  return Math.max(60, Math.ceil((toMs - fromMs) / 60_000) * 60);
}

/**
 * How many copies of production's requests the shadow variant was sent over the window and how many of them failed
 * (a 4xx or 5xx answer, an unreachable container, a timeout), from its CloudWatch metrics.
 */
export async function shadowCalls(
  cloudWatch: CloudWatchClient,
  endpointName: string,
  shadowVariant: string,
  fromMs: number,
  toMs: number,
): Promise<ShadowCalls> {
  const period = windowPeriodSeconds(fromMs, toMs);
  const sums = new Map<string, number>();
  let nextToken: string | undefined;
  do {
    const page = await awsCall(`metrics of "${endpointName}"`, () =>
      cloudWatch.send(
        new GetMetricDataCommand({
          MetricDataQueries: COUNTED.map((metric, index) => ({
            Id: `m${index}`,
            Label: metric,
            ReturnData: true,
            MetricStat: {
              Metric: {
                Namespace: "AWS/SageMaker",
                MetricName: metric,
                Dimensions: [
                  { Name: "EndpointName", Value: endpointName },
                  { Name: "VariantName", Value: shadowVariant },
                ],
              },
              Period: period,
              Stat: "Sum",
            },
          })),
          StartTime: new Date(fromMs),
          EndTime: new Date(toMs),
          NextToken: nextToken,
        }),
      ),
    );
    for (const result of page.MetricDataResults ?? []) {
      const total = (result.Values ?? []).reduce((sum, value) => sum + value, 0);
      sums.set(result.Id ?? "", (sums.get(result.Id ?? "") ?? 0) + total);
    }
    nextToken = page.NextToken;
  } while (nextToken);
  const sum = (metric: (typeof COUNTED)[number]) => Math.round(sums.get(`m${COUNTED.indexOf(metric)}`) ?? 0);
  return { copies: sum("Invocations"), failed: sum("Invocation4XXErrors") + sum("Invocation5XXErrors") };
}
