import {
  type AlarmHistoryItem,
  type CloudWatchClient,
  DescribeAlarmHistoryCommand,
  DescribeAlarmsCommand,
  type MetricAlarm,
} from "@aws-sdk/client-cloudwatch";
import type { DescribeEndpointOutput } from "@aws-sdk/client-sagemaker";
import type { AlarmCrossing, RollbackCause } from "../../contract/endpoints/deployment-status.ts";
import { LONGEST_UPDATE_SECONDS } from "../../contract/endpoints/update.ts";
import { lastDoneTo } from "../audit/record.ts";
import type { Store } from "../store/store.ts";

/** The console's actions that start an update watched by rollback alarms (a promotion starts one when its test ends). */
const UPDATE_ACTIONS = ["endpoint.update", "endpoint.rollback", "endpoint.shadow-test.promote"];
const ABORT_ACTION = "endpoint.update.abort";

const comparisons: Record<string, string> = {
  GreaterThanThreshold: ">",
  GreaterThanOrEqualToThreshold: ">=",
  LessThanThreshold: "<",
  LessThanOrEqualToThreshold: "<=",
};
const crosses: Record<string, (value: number, threshold: number) => boolean> = {
  ">": (value, threshold) => value > threshold,
  ">=": (value, threshold) => value >= threshold,
  "<": (value, threshold) => value < threshold,
  "<=": (value, threshold) => value <= threshold,
};

interface StateChange {
  alarm: string;
  at: Date;
  state: unknown;
  reason: string;
  /** CloudWatch's own evaluation (HistoryData's newState.stateReasonData); absent when SetAlarmState set it. */
  reasonData: { statistic?: unknown; recentDatapoints?: unknown; threshold?: unknown } | null;
}

/**
 * A StateUpdate item's new state, read from its HistoryData (DescribeAlarmHistory documents it as the alarm's old
 * and new state in JSON), not from the summary's wording.
 */
function stateChangeOf(item: AlarmHistoryItem): StateChange | null {
  let data: { newState?: { stateValue?: unknown; stateReason?: unknown; stateReasonData?: unknown } };
  try {
    data = JSON.parse(item.HistoryData ?? "{}");
  } catch {
    return null;
  }
  const state = data.newState;
  if (!state || !item.AlarmName || !item.Timestamp) return null;
  const reasonData = state.stateReasonData;
  return {
    alarm: item.AlarmName,
    at: item.Timestamp,
    state: state.stateValue,
    reason: typeof state.stateReason === "string" ? state.stateReason : "",
    reasonData: reasonData && typeof reasonData === "object" ? reasonData : null,
  };
}

/**
 * The datapoint that crossed, from the trip's reason data and the alarm's definition (DescribeAlarms): ModelLatency,
 * which SageMaker publishes in microseconds, in ms, the unit the update form asks for.
 */
function crossingOf(trip: StateChange, alarm: MetricAlarm | undefined): AlarmCrossing | null {
  const data = trip.reasonData;
  const points = Array.isArray(data?.recentDatapoints)
    ? data.recentDatapoints.filter((point): point is number => typeof point === "number")
    : [];
  if (!data || typeof data.threshold !== "number" || points.length === 0) return null;
  const comparison = comparisons[alarm?.ComparisonOperator ?? ""] ?? ">";
  const crossing = crosses[comparison] ?? (() => true);
  const value = points.filter((point) => crossing(point, data.threshold as number)).at(-1) ?? (points.at(-1) as number);
  const microseconds = alarm?.Unit === "Microseconds";
  return {
    metric: alarm?.MetricName ?? "",
    statistic: typeof data.statistic === "string" ? data.statistic : (alarm?.Statistic ?? ""),
    comparison,
    value: microseconds ? value / 1000 : value,
    threshold: microseconds ? data.threshold / 1000 : data.threshold,
    unit: microseconds ? "ms" : alarm?.Unit && alarm.Unit !== "None" ? alarm.Unit : "",
  };
}

/**
 * The moves to ALARM that kept an alarm in ALARM during [from, to]: those within, and the last one before `from`
 * when the alarm was still in ALARM as the update started (SageMaker then rolls back on a datapoint from before it).
 * DescribeAlarmHistory answers newest first; reading stops at the first item before `from`.
 */
async function tripsDuring(
  cloudWatch: CloudWatchClient,
  alarms: string[],
  from: Date,
  to: Date,
): Promise<StateChange[]> {
  const trips: StateChange[] = [];
  for (const alarm of alarms) {
    let token: string | undefined;
    let before: StateChange | null = null;
    do {
      const page = await cloudWatch.send(
        new DescribeAlarmHistoryCommand({
          AlarmName: alarm,
          HistoryItemType: "StateUpdate",
          EndDate: to,
          ScanBy: "TimestampDescending",
          NextToken: token,
        }),
      );
      for (const change of (page.AlarmHistoryItems ?? []).flatMap((item) => stateChangeOf(item) ?? [])) {
        if (change.at <= from) {
          before = change;
          break;
        }
        if (change.state === "ALARM") trips.push(change);
      }
      token = page.NextToken;
    } while (token && !before);
    if (before?.state === "ALARM") trips.push(before);
  }
  return trips.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/**
 * Why the endpoint's last update went back, decided from what the console knows rather than from FailureReason's
 * wording: the update's rollback alarms (LastDeploymentConfig), which of them were in ALARM between the update's start
 * (the audit log's record of it) and its end (LastModifiedTime) by their history, and an abort the console recorded
 * since the start. An abort sets an
 * alarm to ALARM by SetAlarmState, with no metric data; an alarm that CloudWatch moved to ALARM by its metric before
 * that is the cause, as SageMaker's auto-rollback acts on the first alarm. Null without a FailureReason.
 */
export async function lastRollbackCause(
  endpoint: DescribeEndpointOutput,
  cloudWatch: CloudWatchClient,
  store: Store,
): Promise<RollbackCause | null> {
  const reason = endpoint.FailureReason;
  const name = endpoint.EndpointName ?? "";
  if (!reason) return null;
  if (endpoint.EndpointStatus === "Failed") return { kind: "failed", reason };
  const to = endpoint.LastModifiedTime ?? new Date();
  const started = await lastDoneTo(store, name, UPDATE_ACTIONS);
  const from =
    started && Date.parse(started.at) <= to.getTime()
      ? new Date(started.at)
      : new Date(to.getTime() - LONGEST_UPDATE_SECONDS * 1000);
  const abort = await lastDoneTo(store, name, [ABORT_ACTION]);
  const abortAt = abort ? new Date(abort.at) : null;
  // An abort is accepted only while the update runs; its record is written once SageMaker has it, which may be after
  // a quick roll back has ended.
  const aborted = abort && abortAt && abortAt >= from ? { by: abort.actor, at: abortAt } : null;

  const names = (endpoint.LastDeploymentConfig?.AutoRollbackConfiguration?.Alarms ?? []).flatMap((alarm) =>
    alarm.AlarmName ? [alarm.AlarmName] : [],
  );
  const trips = names.length > 0 ? await tripsDuring(cloudWatch, names, from, to) : [];
  const byMetric = trips.find((trip) => trip.reasonData && (!aborted || trip.at <= aborted.at));
  if (aborted && !byMetric) return { kind: "stopped", by: aborted.by, at: aborted.at.toISOString() };
  const trip = byMetric ?? trips[0];
  if (!trip) return { kind: "failed", reason };
  const { MetricAlarms = [] } = await cloudWatch.send(new DescribeAlarmsCommand({ AlarmNames: [trip.alarm] }));
  return {
    kind: "alarm",
    alarm: trip.alarm,
    at: trip.at.toISOString(),
    crossing: crossingOf(
      trip,
      MetricAlarms.find((alarm) => alarm.AlarmName === trip.alarm),
    ),
    reason: trip.reason,
  };
}
