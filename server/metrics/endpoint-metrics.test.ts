import { CloudWatchClient, GetMetricDataCommand } from "@aws-sdk/client-cloudwatch";
import { mockClient } from "aws-sdk-client-mock";
import "aws-sdk-client-mock-vitest/extend";
import { beforeEach, describe, expect, it } from "vitest";
import { metricsQuerySchema } from "../../contract/endpoints/metrics.ts";
import { endpointMetrics } from "./endpoint-metrics.ts";

const cloudWatch = mockClient(CloudWatchClient);
const client = new CloudWatchClient({ region: "us-east-1" });
const now = new Date("2026-11-30T12:00:30.000Z");

describe("endpoint metrics", () => {
  beforeEach(() => cloudWatch.reset());

  it("asks for the four SageMaker metrics of the variant, ModelLatency as an average, and the endpoint's backlog", async () => {
    cloudWatch.on(GetMetricDataCommand).resolves({ MetricDataResults: [] });
    await endpointMetrics(
      client,
      "demo",
      "AllTraffic",
      metricsQuerySchema.parse({ minutes: "60", periodSeconds: "60" }),
      now,
    );
    const input = cloudWatch.commandCalls(GetMetricDataCommand)[0]?.args[0].input;
    expect(input?.StartTime).toEqual(new Date("2026-11-30T11:01:00.000Z"));
    expect(input?.EndTime).toEqual(new Date("2026-11-30T12:01:00.000Z"));
    expect(
      input?.MetricDataQueries?.map((q) => [
        q.MetricStat?.Metric?.MetricName,
        q.MetricStat?.Stat,
        q.MetricStat?.Period,
      ]),
    ).toEqual([
      ["Invocations", "Sum", 60],
      ["ModelLatency", "Average", 60],
      ["Invocation4XXErrors", "Sum", 60],
      ["Invocation5XXErrors", "Sum", 60],
      ["ApproximateBacklogSize", "Average", 60],
      ["ApproximateAgeOfOldestRequest", "Maximum", 60],
      ["InvocationsProcesssed", "Sum", 60],
    ]);
    // An asynchronous endpoint publishes no Invocations: it counts them per variant in InvocationsProcesssed.
    expect(input?.MetricDataQueries?.[6]?.MetricStat?.Metric?.Dimensions).toEqual([
      { Name: "EndpointName", Value: "demo" },
      { Name: "VariantName", Value: "AllTraffic" },
    ]);
    expect(input?.MetricDataQueries?.[4]?.MetricStat?.Metric?.Dimensions).toEqual([
      { Name: "EndpointName", Value: "demo" },
    ]);
    expect(input?.MetricDataQueries?.[0]?.MetricStat?.Metric).toEqual({
      Namespace: "AWS/SageMaker",
      MetricName: "Invocations",
      Dimensions: [
        { Name: "EndpointName", Value: "demo" },
        { Name: "VariantName", Value: "AllTraffic" },
      ],
    });
  });

  it("ends the window with the period now falls in and starts it on a period boundary", async () => {
    cloudWatch.on(GetMetricDataCommand).resolves({ MetricDataResults: [] });
    await endpointMetrics(client, "demo", "AllTraffic", metricsQuerySchema.parse({ minutes: "180" }), now);
    const input = cloudWatch.commandCalls(GetMetricDataCommand)[0]?.args[0].input;
    expect(input?.StartTime).toEqual(new Date("2026-11-30T09:05:00.000Z"));
    expect(input?.EndTime).toEqual(new Date("2026-11-30T12:05:00.000Z"));
  });

  it("joins pages into one series per metric, oldest point first", async () => {
    const t = (m: number) => new Date(Date.UTC(2026, 10, 30, 11, m));
    cloudWatch
      .on(GetMetricDataCommand)
      .resolvesOnce({ MetricDataResults: [{ Id: "m0", Timestamps: [t(10)], Values: [4] }], NextToken: "next" })
      .resolvesOnce({
        MetricDataResults: [
          { Id: "m0", Timestamps: [t(5)], Values: [2] },
          { Id: "m1", Timestamps: [t(5)], Values: [350000] },
        ],
      });
    const result = await endpointMetrics(client, "demo", "AllTraffic", metricsQuerySchema.parse({}), now);
    expect(result.series[0]?.points).toEqual([
      { at: "2026-11-30T11:05:00.000Z", value: 2 },
      { at: "2026-11-30T11:10:00.000Z", value: 4 },
    ]);
    expect(result.series[1]).toMatchObject({
      metric: "ModelLatency",
      unit: "Microseconds",
      points: [{ value: 350000 }],
    });
    expect(cloudWatch).toHaveReceivedNthCommandWith(GetMetricDataCommand, 2, { NextToken: "next" });
  });
});
