import { CloudWatchClient, GetMetricDataCommand } from "@aws-sdk/client-cloudwatch";
import { mockClient } from "aws-sdk-client-mock";
import { describe, expect, it } from "vitest";
import type { EndpointList, EndpointSummary } from "../../contract/endpoints/endpoint.ts";
import { COST_WINDOW_HOURS, withServedCost } from "./served-cost.ts";

function summary(name: string, overrides: Partial<EndpointSummary> = {}): EndpointSummary {
  return {
    name,
    arn: `arn:aws:sagemaker:us-east-1:123456789012:endpoint/${name}`,
    status: "InService",
    apiMode: "decision",
    instanceType: "ml.c6i.2xlarge",
    instanceCount: 1,
    usedFallbackPool: false,
    imageDigest: null,
    modelSha256: null,
    createdAt: "2026-12-01T00:00:00.000Z",
    lastModifiedAt: "2026-12-01T00:00:00.000Z",
    hourlyPriceUsd: 0.408,
    variantName: "AllTraffic",
    costPerThousandUsd: null,
    failureReason: null,
    managed: true,
    ...overrides,
  };
}

const list = (endpoints: EndpointSummary[]): EndpointList => ({
  endpoints,
  pricesAsOf: "2025-10-01",
  costWindowHours: COST_WINDOW_HOURS,
});

describe("the endpoints list's cost per 1,000 decisions", () => {
  it("divides a day of the instances' price by the invocations counted for each endpoint's variant", async () => {
    const cloudWatch = mockClient(CloudWatchClient);
    cloudWatch.on(GetMetricDataCommand).resolves({
      MetricDataResults: [
        { Id: "e0m0", Values: [20_000, 28_960] },
        { Id: "e0m1", Values: [] },
        { Id: "e1m0", Values: [] },
        { Id: "e1m1", Values: [480] },
      ],
    });
    const priced = await withServedCost(
      cloudWatch as unknown as CloudWatchClient,
      list([summary("dc-router"), summary("dc-async", { instanceType: "ml.g6e.xlarge", hourlyPriceUsd: 2.336 })]),
    );
    // $0.408 x 24 h / 48,960 decisions x 1,000; the asynchronous endpoint counted in InvocationsProcesssed.
    expect(priced.endpoints.map((endpoint) => endpoint.costPerThousandUsd)).toEqual([
      expect.closeTo((0.408 * 24 * 1000) / 48_960, 12),
      expect.closeTo((2.336 * 24 * 1000) / 480, 12),
    ]);
    const sent = cloudWatch.commandCalls(GetMetricDataCommand)[0]?.args[0].input;
    expect(sent?.MetricDataQueries?.[0]?.MetricStat?.Metric?.Dimensions).toEqual([
      { Name: "EndpointName", Value: "dc-router" },
      { Name: "VariantName", Value: "AllTraffic" },
    ]);
  });

  it("asks nothing for endpoints without a price or not managed, and leaves their cost empty", async () => {
    const cloudWatch = mockClient(CloudWatchClient);
    const unpriced = list([summary("dc-gpu", { hourlyPriceUsd: null }), summary("other", { managed: false })]);
    expect(await withServedCost(cloudWatch as unknown as CloudWatchClient, unpriced)).toEqual(unpriced);
    expect(cloudWatch.commandCalls(GetMetricDataCommand)).toHaveLength(0);
  });

  it("still lists every endpoint, without costs, when CloudWatch refuses", async () => {
    const cloudWatch = mockClient(CloudWatchClient);
    cloudWatch.on(GetMetricDataCommand).rejects(Object.assign(new Error("denied"), { name: "AccessDeniedException" }));
    const endpoints = list([summary("dc-router")]);
    expect(await withServedCost(cloudWatch as unknown as CloudWatchClient, endpoints)).toEqual(endpoints);
  });
});
