import { CloudWatchClient, GetMetricDataCommand, type GetMetricDataCommandInput } from "@aws-sdk/client-cloudwatch";
import { mockClient } from "aws-sdk-client-mock";
import { afterEach, describe, expect, it } from "vitest";
import { shadowCalls } from "./shadow-calls.ts";

const cloudWatch = mockClient(CloudWatchClient);
const client = new CloudWatchClient({ region: "us-east-1" });
const from = Date.parse("2026-12-07T10:00:00Z");
const to = Date.parse("2026-12-07T11:00:00Z");

describe("a shadow variant's calls", () => {
  afterEach(() => cloudWatch.reset());

  it("counts its copies and its 4xx and 5xx answers from its own variant's metrics over the window", async () => {
    cloudWatch.on(GetMetricDataCommand).resolves({
      MetricDataResults: [
        { Id: "m0", Values: [150] },
        { Id: "m1", Values: [3] },
        { Id: "m2", Values: [137] },
      ],
    });
    expect(await shadowCalls(client, "dc-smol", "Shadow", from, to)).toEqual({ copies: 150, failed: 140 });
    const input = cloudWatch.commandCalls(GetMetricDataCommand)[0]?.args[0].input as GetMetricDataCommandInput;
    expect(input.MetricDataQueries?.map((query) => query.MetricStat?.Metric?.MetricName)).toEqual([
      "Invocations",
      "Invocation4XXErrors",
      "Invocation5XXErrors",
    ]);
    expect(input.MetricDataQueries?.[0]?.MetricStat?.Metric?.Dimensions).toEqual([
      { Name: "EndpointName", Value: "dc-smol" },
      { Name: "VariantName", Value: "Shadow" },
    ]);
    expect(input.MetricDataQueries?.[0]?.MetricStat).toMatchObject({ Period: 3600, Stat: "Sum" });
  });

  it("adds up every page of the answer", async () => {
    cloudWatch
      .on(GetMetricDataCommand)
      .resolvesOnce({ MetricDataResults: [{ Id: "m0", Values: [10] }], NextToken: "more" })
      .resolvesOnce({
        MetricDataResults: [
          { Id: "m0", Values: [5] },
          { Id: "m2", Values: [2] },
        ],
      });
    expect(await shadowCalls(client, "dc-smol", "Shadow", from, to)).toEqual({ copies: 15, failed: 2 });
  });
});
