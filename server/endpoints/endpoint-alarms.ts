import {
  type CloudWatchClient,
  DescribeAlarmHistoryCommand,
  DescribeAlarmsCommand,
  type MetricAlarm,
} from "@aws-sdk/client-cloudwatch";
import type { EndpointAlarm, EndpointAlarmKind, EndpointAlarms } from "../../contract/endpoints/alarms.ts";
import { wakeAlarmName } from "../autoscaling/scale-to-zero.ts";
import { awsCall } from "../aws/errors.ts";
import { rollbackGuardAlarmNames } from "./rollback-alarms.ts";

/** State changes shown per alarm. */
const HISTORY_ITEMS = 10;

const operators: Record<string, string> = {
  GreaterThanOrEqualToThreshold: "≥",
  GreaterThanThreshold: ">",
  LessThanThreshold: "<",
  LessThanOrEqualToThreshold: "≤",
};

/** The prefix of the alarms Application Auto Scaling names for a target-tracking policy on the endpoint's variants. */
const targetTrackingPrefix = (endpointName: string) => `TargetTracking-endpoint/${endpointName}/`;

function kindOf(endpointName: string, alarmName: string): EndpointAlarmKind {
  if (alarmName === wakeAlarmName(endpointName)) return "scale-to-zero-wake-up";
  if (alarmName.startsWith(targetTrackingPrefix(endpointName))) return "target-tracking";
  return "rollback-guard";
}

function conditionOf(alarm: MetricAlarm): string {
  const statistic = alarm.Statistic ?? alarm.ExtendedStatistic ?? "";
  const operator = operators[alarm.ComparisonOperator ?? ""] ?? alarm.ComparisonOperator ?? "";
  return `${statistic} of ${alarm.MetricName ?? "?"} ${operator} ${alarm.Threshold ?? "?"} over ${alarm.EvaluationPeriods ?? 1} × ${alarm.Period ?? 60} s`;
}

async function describeAll(
  cloudWatch: CloudWatchClient,
  endpointName: string,
  input: { AlarmNames?: string[]; AlarmNamePrefix?: string },
) {
  const alarms: MetricAlarm[] = [];
  let nextToken: string | undefined;
  do {
    const page = await awsCall(`alarms of "${endpointName}"`, () =>
      cloudWatch.send(new DescribeAlarmsCommand({ ...input, AlarmTypes: ["MetricAlarm"], NextToken: nextToken })),
    );
    alarms.push(...(page.MetricAlarms ?? []));
    nextToken = page.NextToken;
  } while (nextToken);
  return alarms;
}

/**
 * Every alarm the console created for the endpoint, through CloudWatch as the console's role reads it: the rollback
 * guards and the scale-to-zero wake-up by their names, the target-tracking alarms by Application Auto Scaling's
 * prefix for the endpoint's variants; each with its state and its latest state changes (DescribeAlarmHistory, one
 * alarm at a time, which the policy allows on the console's alarms only).
 */
export async function endpointAlarms(cloudWatch: CloudWatchClient, endpointName: string): Promise<EndpointAlarms> {
  const named = await describeAll(cloudWatch, endpointName, {
    AlarmNames: [...rollbackGuardAlarmNames(endpointName), wakeAlarmName(endpointName)],
  });
  const tracking = await describeAll(cloudWatch, endpointName, { AlarmNamePrefix: targetTrackingPrefix(endpointName) });
  const alarms = await Promise.all(
    [...named, ...tracking].map(async (alarm): Promise<EndpointAlarm> => {
      const name = alarm.AlarmName ?? "";
      const history = await awsCall(`history of alarm "${name}"`, () =>
        cloudWatch.send(
          new DescribeAlarmHistoryCommand({
            AlarmName: name,
            HistoryItemType: "StateUpdate",
            MaxRecords: HISTORY_ITEMS,
          }),
        ),
      );
      return {
        name,
        kind: kindOf(endpointName, name),
        condition: conditionOf(alarm),
        state: alarm.StateValue ?? "INSUFFICIENT_DATA",
        stateReason: alarm.StateReason ?? null,
        stateUpdatedAt: alarm.StateUpdatedTimestamp?.toISOString() ?? null,
        history: (history.AlarmHistoryItems ?? []).map((item) => ({
          at: (item.Timestamp ?? new Date(0)).toISOString(),
          summary: item.HistorySummary ?? "",
        })),
      };
    }),
  );
  return { endpointName, alarms };
}
