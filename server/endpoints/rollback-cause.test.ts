import {
  type AlarmHistoryItem,
  CloudWatchClient,
  DescribeAlarmHistoryCommand,
  DescribeAlarmsCommand,
} from "@aws-sdk/client-cloudwatch";
import type { DescribeEndpointOutput } from "@aws-sdk/client-sagemaker";
import { mockClient } from "aws-sdk-client-mock";
import { beforeEach, expect, it } from "vitest";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import { recordAudit } from "../audit/record.ts";
import { lastRollbackCause } from "./rollback-cause.ts";

const cloudWatch = mockClient(CloudWatchClient);
const client = new CloudWatchClient({ region: "us-east-1" });
const latencyAlarm = "dc-a-rollback-latency-average";
const errorsAlarm = "dc-a-rollback-5xx";

/** What DescribeEndpoint answers once SageMaker has rolled an update back: InService on the old configuration. */
function rolledBack(failureReason: string): DescribeEndpointOutput {
  return {
    EndpointName: "dc-a",
    EndpointArn: "arn:aws:sagemaker:us-east-1:111122223333:endpoint/dc-a",
    EndpointConfigName: "dc-a-1",
    EndpointStatus: "InService",
    CreationTime: new Date("2026-12-01T09:00:00Z"),
    LastModifiedTime: new Date(Date.now() + 60_000),
    FailureReason: failureReason,
    LastDeploymentConfig: {
      AutoRollbackConfiguration: { Alarms: [{ AlarmName: errorsAlarm }, { AlarmName: latencyAlarm }] },
    },
  };
}

/** A StateUpdate item as DescribeAlarmHistory returns it (newest first): the old and new state in HistoryData's JSON. */
function toAlarm(alarm: string, at: Date, reason: string, reasonData?: object, state = "ALARM"): AlarmHistoryItem {
  const old = state === "ALARM" ? "OK" : "ALARM";
  return {
    AlarmName: alarm,
    AlarmType: "MetricAlarm",
    Timestamp: at,
    HistoryItemType: "StateUpdate",
    HistorySummary: `Alarm updated from ${old} to ${state}`,
    HistoryData: JSON.stringify({
      version: "1.0",
      oldState: { stateValue: old, stateReason: "Threshold Crossed" },
      newState: { stateValue: state, stateReason: reason, ...(reasonData ? { stateReasonData: reasonData } : {}) },
    }),
  };
}

const latencyCrossed = (at: Date) =>
  toAlarm(
    latencyAlarm,
    at,
    "Threshold Crossed: 1 out of the last 1 datapoints [2512345.0 (07/12/26 10:00:00)] was greater than the threshold (2000000.0).",
    { version: "1.0", statistic: "Average", period: 60, recentDatapoints: [2512345.0], threshold: 2000000.0 },
  );

function history(items: Record<string, AlarmHistoryItem[]>) {
  for (const [alarm, found] of Object.entries(items)) {
    cloudWatch.on(DescribeAlarmHistoryCommand, { AlarmName: alarm }).resolves({ AlarmHistoryItems: found });
  }
  cloudWatch.on(DescribeAlarmsCommand, { AlarmNames: [latencyAlarm] }).resolves({
    MetricAlarms: [
      {
        AlarmName: latencyAlarm,
        MetricName: "ModelLatency",
        Namespace: "AWS/SageMaker",
        Statistic: "Average",
        Unit: "Microseconds",
        Threshold: 2000000,
        ComparisonOperator: "GreaterThanThreshold",
      },
    ],
  });
}

const causeOf = (store: Parameters<typeof lastRollbackCause>[2]) =>
  lastRollbackCause(rolledBack("Rolled back"), client, store);
const latencyAlarmAt = (at: Date) => ({ kind: "alarm", alarm: latencyAlarm, at: at.toISOString() });

describeOnStores("why an endpoint's last update went back", (current) => {
  beforeEach(() => {
    cloudWatch.reset();
    cloudWatch.on(DescribeAlarmHistoryCommand).resolves({ AlarmHistoryItems: [] });
  });

  const update = (store: ReturnType<typeof current>["store"]) =>
    recordAudit({ actor: "alice", action: "endpoint.update", target: "dc-a", result: "ok" }, store);
  const abort = (store: ReturnType<typeof current>["store"]) =>
    recordAudit(
      { actor: "bob", action: "endpoint.update.abort", target: "dc-a", result: "ok", detail: { alarm: errorsAlarm } },
      store,
    );

  it("is the person who stopped it, though the alarm the abort set went to ALARM and the reason blames it", async () => {
    const { store } = current();
    await update(store);
    const stopped = await abort(store);
    history({
      [errorsAlarm]: [toAlarm(errorsAlarm, new Date(Date.parse(stopped.at) - 5), "Abort and roll back")],
    });
    const endpoint = rolledBack(
      "Rolled back to endpoint configuration dc-a-1: the CloudWatch alarm dc-a-rollback-5xx went into ALARM",
    );
    expect(await lastRollbackCause(endpoint, client, store)).toEqual({ kind: "stopped", by: "bob", at: stopped.at });
  });

  it("is the alarm CloudWatch moved to ALARM by its metric, with the datapoint and threshold in ms", async () => {
    const { store } = current();
    const started = await update(store);
    const at = new Date(Date.parse(started.at) + 1_000);
    history({ [latencyAlarm]: [latencyCrossed(at)] });
    // A wording that names a person: the console does not read the cause from FailureReason.
    const endpoint = rolledBack("Rolled back (Abort and roll back, asked from the console by mallory)");
    expect(await lastRollbackCause(endpoint, client, store)).toMatchObject({
      kind: "alarm",
      alarm: latencyAlarm,
      at: at.toISOString(),
      crossing: {
        metric: "ModelLatency",
        statistic: "Average",
        comparison: ">",
        value: 2512.345,
        threshold: 2000,
        unit: "ms",
      },
    });
    const asked = cloudWatch.commandCalls(DescribeAlarmHistoryCommand).map((call) => call.args[0].input);
    expect(asked.map((input) => input.AlarmName)).toEqual([errorsAlarm, latencyAlarm]);
    expect(asked[0]).toMatchObject({ HistoryItemType: "StateUpdate", ScanBy: "TimestampDescending" });
    expect(asked[0]?.EndDate).toEqual(endpoint.LastModifiedTime);
  });

  it("is an alarm already in ALARM when the update started, on a datapoint from before it", async () => {
    const { store } = current();
    const started = await update(store);
    const crossedAt = new Date(Date.parse(started.at) - 2_000);
    const earlier = toAlarm(latencyAlarm, new Date(Date.parse(started.at) - 600_000), "Threshold Crossed", {});
    history({ [latencyAlarm]: [latencyCrossed(crossedAt), earlier] });
    expect(await causeOf(store)).toMatchObject(latencyAlarmAt(crossedAt));
  });

  it("is not an alarm that was back to OK before the update started", async () => {
    const { store } = current();
    const started = await update(store);
    const ok = toAlarm(latencyAlarm, new Date(Date.parse(started.at) - 2_000), "Threshold Crossed", {}, "OK");
    history({ [latencyAlarm]: [ok, latencyCrossed(new Date(Date.parse(started.at) - 60_000))] });
    expect(await causeOf(store)).toEqual({ kind: "failed", reason: "Rolled back" });
  });

  it("is an alarm that went off before a person's abort: SageMaker acts on the first alarm", async () => {
    const { store } = current();
    await update(store);
    const stopped = await abort(store);
    const crossedAt = new Date(Date.parse(stopped.at) - 30_000);
    history({
      [errorsAlarm]: [toAlarm(errorsAlarm, new Date(Date.parse(stopped.at) - 5), "Abort and roll back")],
      [latencyAlarm]: [latencyCrossed(crossedAt)],
    });
    expect(await causeOf(store)).toMatchObject(latencyAlarmAt(crossedAt));
  });

  it("does not blame an abort recorded before the update started", async () => {
    const { store } = current();
    await abort(store);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await update(store);
    expect(await causeOf(store)).toEqual({ kind: "failed", reason: "Rolled back" });
  });

  it("is SageMaker's FailureReason when no one stopped it and no alarm went off", async () => {
    const { store } = current();
    await update(store);
    const reason = "The new fleet failed its health checks: /ping answered 500.";
    expect(await lastRollbackCause(rolledBack(reason), client, store)).toEqual({ kind: "failed", reason });
  });

  it("is nothing without a FailureReason", async () => {
    const { store } = current();
    expect(await lastRollbackCause({ ...rolledBack(""), FailureReason: undefined }, client, store)).toBeNull();
  });
});
