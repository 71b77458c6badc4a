import type { AuthorizationQuery } from "../evaluate.ts";
import { type OperationAuthorization, type RequestFacts, requestTagContext, str, tagListToMap } from "./facts.ts";

/** `arn:aws:cloudwatch:<region>:<account>:alarm:<name>`. */
export function alarmResource(facts: RequestFacts, name: string): string {
  return `arn:aws:cloudwatch:${facts.region}:${facts.accountId}:alarm:${name}`;
}

const names = (value: unknown): string[] => (Array.isArray(value) ? (value as unknown[]).map(str) : []);

/** One query per named alarm: each must be allowed (DeleteAlarms and DescribeAlarms with AlarmNames). */
function onAlarms(action: string, alarmNames: string[], facts: RequestFacts): AuthorizationQuery[] {
  return alarmNames.map((name) => ({ action, resource: alarmResource(facts, name), context: {} }));
}

/**
 * CloudWatch: GetMetricData over classic metrics has no resource type; the alarm operations act on alarm ARNs. A
 * DescribeAlarms that names no alarms asks for every alarm (`alarm:*`), one with AlarmNamePrefix for those the prefix
 * covers (`alarm:<prefix>*`), so a policy scoped to the console's prefix allows exactly those.
 */
export const cloudWatchAuthorization: Record<string, OperationAuthorization> = {
  GetMetricData: () => [{ action: "cloudwatch:GetMetricData", resource: "*", context: {} }],
  // PutMetricData has no resource type; a policy narrows it by the namespace (`cloudwatch:namespace`).
  PutMetricData: (input) => [
    {
      action: "cloudwatch:PutMetricData",
      resource: "*",
      context: typeof input.Namespace === "string" ? { "cloudwatch:namespace": input.Namespace } : {},
    },
  ],
  // cloudwatch:AlarmActions holds the actions of every state: "These actions can be initiated when the alarm changes
  // to any state, including ALARM, OK, or INSUFFICIENT_DATA. Use the cloudwatch:AlarmActions condition key to allow a
  // user to create alarms that can only perform the actions you specify" (CloudWatch User Guide, "Using condition
  // keys to limit alarm actions").
  PutMetricAlarm: (input, facts) => [
    {
      action: "cloudwatch:PutMetricAlarm",
      resource: alarmResource(facts, str(input.AlarmName)),
      context: {
        ...requestTagContext(tagListToMap(input.Tags)),
        "cloudwatch:AlarmActions": [
          ...new Set([input.AlarmActions, input.OKActions, input.InsufficientDataActions].flatMap(names)),
        ],
      },
    },
  ],
  DescribeAlarms(input, facts) {
    const alarmNames = names(input.AlarmNames);
    if (alarmNames.length > 0) return onAlarms("cloudwatch:DescribeAlarms", alarmNames, facts);
    const prefix = typeof input.AlarmNamePrefix === "string" ? input.AlarmNamePrefix : "";
    return [{ action: "cloudwatch:DescribeAlarms", resource: alarmResource(facts, `${prefix}*`), context: {} }];
  },
  SetAlarmState: (input, facts) => onAlarms("cloudwatch:SetAlarmState", [str(input.AlarmName)], facts),
  DeleteAlarms: (input, facts) => onAlarms("cloudwatch:DeleteAlarms", names(input.AlarmNames), facts),
  // One alarm's history is asked on its ARN; every alarm's on `alarm:*`.
  DescribeAlarmHistory: (input, facts) => [
    {
      action: "cloudwatch:DescribeAlarmHistory",
      resource: alarmResource(facts, typeof input.AlarmName === "string" ? input.AlarmName : "*"),
      context: {},
    },
  ],
};
