import { type CloudWatchClient, GetMetricDataCommand, type MetricDataQuery } from "@aws-sdk/client-cloudwatch";
import type { EndpointList } from "../../contract/endpoints/endpoint.ts";
import { servedCostPerThousand } from "../../contract/pricing/cost-per-decision.ts";
import { awsCall } from "../aws/errors.ts";

/** The endpoints list counts each endpoint's decisions over the last day. */
export const COST_WINDOW_HOURS = 24;
/** GetMetricData takes at most 500 queries a call. */
const QUERIES_PER_CALL = 500;
/** A real-time endpoint counts its decisions in Invocations; an asynchronous one in InvocationsProcesssed. */
const COUNTED = ["Invocations", "InvocationsProcesssed"] as const;

/**
 * Each listed endpoint's cost per 1,000 decisions over the last `COST_WINDOW_HOURS`: its instances' hourly price
 * (the count listed now, over the whole window: the endpoint page counts scaling) over the invocations CloudWatch
 * counted for its variant, read for every endpoint in as few GetMetricData calls as the 500-query limit allows. The
 * list never fails for its costs: without the metrics they stay null.
 */
export async function withServedCost(
  cloudWatch: CloudWatchClient,
  list: EndpointList,
  now: Date = new Date(),
): Promise<EndpointList> {
  const priced = list.endpoints.filter(
    (endpoint) => endpoint.managed && endpoint.variantName && endpoint.hourlyPriceUsd,
  );
  if (priced.length === 0) return list;
  const queries: MetricDataQuery[] = priced.flatMap((endpoint, e) =>
    COUNTED.map((metric, m) => ({
      Id: `e${e}m${m}`,
      ReturnData: true,
      MetricStat: {
        Metric: {
          Namespace: "AWS/SageMaker",
          MetricName: metric,
          Dimensions: [
            { Name: "EndpointName", Value: endpoint.name },
            { Name: "VariantName", Value: endpoint.variantName as string },
          ],
        },
        Period: 3600,
        Stat: "Sum",
      },
    })),
  );
  const decisions = new Map<number, number>();
  const start = new Date(now.getTime() - COST_WINDOW_HOURS * 3_600_000);
  try {
    for (let first = 0; first < queries.length; first += QUERIES_PER_CALL) {
      let nextToken: string | undefined;
      do {
        const page = await awsCall("invocation counts", () =>
          cloudWatch.send(
            new GetMetricDataCommand({
              MetricDataQueries: queries.slice(first, first + QUERIES_PER_CALL),
              StartTime: start,
              EndTime: now,
              NextToken: nextToken,
            }),
          ),
        );
        for (const result of page.MetricDataResults ?? []) {
          const index = Number(/^e(\d+)m/.exec(result.Id ?? "")?.[1] ?? -1);
          const sum = (result.Values ?? []).reduce((total, value) => total + value, 0);
          decisions.set(index, (decisions.get(index) ?? 0) + sum);
        }
        nextToken = page.NextToken;
      } while (nextToken);
    }
  } catch {
    return list;
  }
  const costs = new Map(
    priced.map((endpoint, e) => [
      endpoint.name,
      servedCostPerThousand({
        instanceHourPriceUsd: endpoint.hourlyPriceUsd,
        instanceHours: COST_WINDOW_HOURS,
        decisions: decisions.get(e) ?? 0,
      }),
    ]),
  );
  return {
    ...list,
    endpoints: list.endpoints.map((endpoint) => ({
      ...endpoint,
      costPerThousandUsd: costs.get(endpoint.name) ?? null,
    })),
  };
}
