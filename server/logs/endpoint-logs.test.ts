import { CloudWatchLogsClient, FilterLogEventsCommand } from "@aws-sdk/client-cloudwatch-logs";
import { mockClient } from "aws-sdk-client-mock";
import "aws-sdk-client-mock-vitest/extend";
import { beforeEach, describe, expect, it } from "vitest";
import { endpointLogsQuerySchema } from "../../contract/endpoints/logs.ts";
import { endpointLogs } from "./endpoint-logs.ts";

const logs = mockClient(CloudWatchLogsClient);
const client = new CloudWatchLogsClient({ region: "us-east-1" });
const now = Date.parse("2026-12-01T12:00:00Z");
const event = (i: number) => ({ timestamp: now - 60_000 + i, logStreamName: "AllTraffic/i-1", message: `line ${i}` });

describe("endpoint logs", () => {
  beforeEach(() => logs.reset());

  it("searches the endpoint's log group in the window with the pattern, and keeps the most recent lines", async () => {
    logs
      .on(FilterLogEventsCommand)
      .resolvesOnce({ events: [event(1), event(2)], nextToken: "a" })
      .resolvesOnce({ events: [], nextToken: "b" })
      .resolvesOnce({ events: [event(3), event(4)] });
    const query = endpointLogsQuerySchema.parse({ minutes: "15", filterPattern: ' "status":500 ', limit: "3" });
    const view = await endpointLogs(client, "dc-demo", query, now);
    expect(logs).toHaveReceivedCommandWith(FilterLogEventsCommand, {
      logGroupName: "/aws/sagemaker/Endpoints/dc-demo",
      startTime: now - 15 * 60_000,
      endTime: now,
      filterPattern: '"status":500',
      limit: 3,
    });
    expect(logs).toHaveReceivedNthCommandWith(FilterLogEventsCommand, 3, { nextToken: "b" });
    expect(view.events.map((e) => e.message)).toEqual(["line 2", "line 3", "line 4"]);
    expect(view).toMatchObject({ logGroupExists: true, truncated: true, filterPattern: '"status":500' });
  });

  it("shows an endpoint that has not written yet as an empty view, and a refused pattern as 400", async () => {
    logs
      .on(FilterLogEventsCommand)
      .rejectsOnce(
        Object.assign(new Error("The specified log group does not exist."), { name: "ResourceNotFoundException" }),
      )
      .rejectsOnce(Object.assign(new Error("Invalid filter pattern"), { name: "InvalidParameterException" }));
    const query = endpointLogsQuerySchema.parse({});
    expect(await endpointLogs(client, "dc-new", query, now)).toMatchObject({ logGroupExists: false, events: [] });
    await expect(endpointLogs(client, "dc-new", { ...query, filterPattern: "{" }, now)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("Invalid filter pattern"),
    });
  });
});
