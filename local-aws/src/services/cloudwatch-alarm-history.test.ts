import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  CloudWatchClient,
  DeleteAlarmsCommand,
  DescribeAlarmHistoryCommand,
  PutMetricAlarmCommand,
  SetAlarmStateCommand,
} from "@aws-sdk/client-cloudwatch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ControlPlane, startControlPlane } from "../control-plane.ts";
import { localClientConfig } from "../stack.ts";
import { testStackFixture } from "../test-support/stack-fixture.ts";

/**
 * Local DescribeAlarmHistory over the wire, from the service model's shapes: what an alarm went through, asked as
 * the console's role (its policy allows it on the alarms of its prefix).
 */
let dataDir: string;
let plane: ControlPlane;
let cloudWatch: CloudWatchClient;
const ALARM = "dc-history-rollback-5xx";

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-alarm-history-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0, waitForEndpoints: false });
  cloudWatch = new CloudWatchClient(localClientConfig(plane, "console"));
  await cloudWatch.send(
    new PutMetricAlarmCommand({
      AlarmName: ALARM,
      Namespace: "AWS/SageMaker",
      MetricName: "Invocation5XXErrors",
      Dimensions: [{ Name: "EndpointName", Value: "dc-history" }],
      Statistic: "Sum",
      Period: 60,
      EvaluationPeriods: 1,
      Threshold: 0,
      ComparisonOperator: "GreaterThanThreshold",
      TreatMissingData: "missing",
    }),
  );
  // The console's role may not set an alarm's state; an administrator stands in for the metric going bad.
  const admin = new CloudWatchClient(localClientConfig(plane, "admin"));
  await admin.send(new SetAlarmStateCommand({ AlarmName: ALARM, StateValue: "ALARM", StateReason: "canary 5XX" }));
  admin.destroy();
});

afterAll(async () => {
  cloudWatch?.destroy();
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("local DescribeAlarmHistory", () => {
  it("lists an alarm's creation and state changes, newest first, with AWS's summaries and data", async () => {
    const { AlarmHistoryItems = [] } = await cloudWatch.send(new DescribeAlarmHistoryCommand({ AlarmName: ALARM }));
    expect(AlarmHistoryItems.map((item) => [item.HistoryItemType, item.HistorySummary])).toEqual([
      ["StateUpdate", "Alarm updated from INSUFFICIENT_DATA to ALARM"],
      ["ConfigurationUpdate", `Alarm "${ALARM}" created`],
    ]);
    const state = JSON.parse(AlarmHistoryItems[0]?.HistoryData ?? "{}");
    expect(state).toMatchObject({
      oldState: { stateValue: "INSUFFICIENT_DATA" },
      newState: { stateValue: "ALARM", stateReason: "canary 5XX" },
    });
    expect(AlarmHistoryItems[0]?.Timestamp).toBeInstanceOf(Date);
    expect(AlarmHistoryItems[0]?.AlarmType).toBe("MetricAlarm");
  });

  it("filters by item type, pages, scans oldest first, and keeps the history of a deleted alarm", async () => {
    const states = await cloudWatch.send(
      new DescribeAlarmHistoryCommand({ AlarmName: ALARM, HistoryItemType: "StateUpdate" }),
    );
    expect(states.AlarmHistoryItems?.map((item) => item.HistoryItemType)).toEqual(["StateUpdate"]);
    const first = await cloudWatch.send(
      new DescribeAlarmHistoryCommand({ AlarmName: ALARM, MaxRecords: 1, ScanBy: "TimestampAscending" }),
    );
    expect(first.AlarmHistoryItems?.[0]?.HistorySummary).toBe(`Alarm "${ALARM}" created`);
    expect(first.NextToken).toBeDefined();
    await cloudWatch.send(new DeleteAlarmsCommand({ AlarmNames: [ALARM] }));
    const after = await cloudWatch.send(new DescribeAlarmHistoryCommand({ AlarmName: ALARM }));
    expect(after.AlarmHistoryItems?.[0]?.HistorySummary).toBe(`Alarm "${ALARM}" deleted`);
  });

  it("refuses what it does not record or serve, in AWS's words", async () => {
    await expect(
      cloudWatch.send(new DescribeAlarmHistoryCommand({ AlarmName: ALARM, HistoryItemType: "Action" })),
    ).rejects.toThrow(/not recorded by local mode/);
    await expect(
      cloudWatch.send(new DescribeAlarmHistoryCommand({ AlarmName: ALARM, MaxRecords: 101 })),
    ).rejects.toThrow(/failed to satisfy constraint/);
    await expect(
      cloudWatch.send(new DescribeAlarmHistoryCommand({ AlarmName: ALARM, NextToken: "x" })),
    ).rejects.toThrow(/NextToken/);
  });
});
