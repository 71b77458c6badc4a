import {
  type ApplicationAutoScalingClient,
  DescribeScalingPoliciesCommand,
} from "@aws-sdk/client-application-auto-scaling";
import {
  type CloudWatchClient,
  DescribeAlarmHistoryCommand,
  DescribeAlarmsCommand,
  type MetricAlarm,
} from "@aws-sdk/client-cloudwatch";
import type { EndpointAlarm, EndpointAlarmKind, EndpointAlarms } from "../../contract/endpoints/alarms.ts";
import { SAGEMAKER_VARIANT_SCALING } from "../../contract/stack/console-contract.ts";
import { wakeAlarmName } from "../autoscaling/scale-to-zero.ts";
import { awsCall } from "../aws/errors.ts";
import { chunks } from "../store/chunks.ts";
import { rollbackGuardAlarmNames } from "./rollback-alarms.ts";

/** DescribeAlarms takes at most 100 AlarmNames (CloudWatch API Reference, DescribeAlarms: "Maximum number of 100 items"). */
const DESCRIBE_ALARMS_MAX_NAMES = 100;

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

/** The alarms by name, at most 100 a call. */
async function describeAll(cloudWatch: CloudWatchClient, endpointName: string, names: readonly string[]) {
  const alarms: MetricAlarm[] = [];
  for (const batch of chunks(names, DESCRIBE_ALARMS_MAX_NAMES)) {
    let nextToken: string | undefined;
    do {
      const page = await awsCall(`alarms of "${endpointName}"`, () =>
        cloudWatch.send(
          new DescribeAlarmsCommand({ AlarmNames: batch, AlarmTypes: ["MetricAlarm"], NextToken: nextToken }),
        ),
      );
      alarms.push(...(page.MetricAlarms ?? []));
      nextToken = page.NextToken;
    } while (nextToken);
  }
  return alarms;
}

/** The alarms Application Auto Scaling created for the target-tracking policies of the endpoint's variants. */
async function targetTrackingAlarmNames(autoScaling: ApplicationAutoScalingClient, endpointName: string) {
  const names: string[] = [];
  let nextToken: string | undefined;
  do {
    const page = await awsCall(`autoscaling policies of "${endpointName}"`, () =>
      autoScaling.send(
        new DescribeScalingPoliciesCommand({
          ServiceNamespace: SAGEMAKER_VARIANT_SCALING.serviceNamespace,
          NextToken: nextToken,
        }),
      ),
    );
    for (const policy of page.ScalingPolicies ?? []) {
      if (!`${policy.ResourceId}/`.startsWith(`endpoint/${endpointName}/variant/`)) continue;
      names.push(...(policy.Alarms ?? []).flatMap((alarm) => (alarm.AlarmName ? [alarm.AlarmName] : [])));
    }
    nextToken = page.NextToken;
  } while (nextToken);
  return names;
}

/**
 * Every alarm the console created for the endpoint, through CloudWatch as the console's role reads it, asked for by
 * name (a policy scoped to `alarm:<prefix>*` certainly covers each; whether CloudWatch authorises an AlarmNamePrefix
 * listing against the prefix is not documented): the rollback guards and the scale-to-zero wake-up by the names the
 * console gives them, the target-tracking alarms by the names their policies report; each with its state and its
 * latest state changes (DescribeAlarmHistory, one alarm at a time, which the policy allows on the console's alarms
 * only).
 */
export async function endpointAlarms(
  clients: { cloudWatch: CloudWatchClient; autoScaling: ApplicationAutoScalingClient },
  endpointName: string,
): Promise<EndpointAlarms> {
  const { cloudWatch, autoScaling } = clients;
  const names = [
    ...rollbackGuardAlarmNames(endpointName),
    wakeAlarmName(endpointName),
    ...(await targetTrackingAlarmNames(autoScaling, endpointName)),
  ];
  const described = await describeAll(cloudWatch, endpointName, names);
  const alarms = await Promise.all(
    described.map(async (alarm): Promise<EndpointAlarm> => {
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
