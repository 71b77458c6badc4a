import {
  type CloudWatchClient,
  DescribeAlarmsCommand,
  PutMetricAlarmCommand,
  type PutMetricAlarmInput,
} from "@aws-sdk/client-cloudwatch";
import type { RollbackAlarms } from "../../contract/endpoints/update.ts";
import { awsCall } from "../aws/errors.ts";

type StandardAlarms = Extract<RollbackAlarms, { kind: "standard" }>;

/**
 * The console's standard rollback alarms of an endpoint's variant, named `<endpoint>-rollback-<what>` (inside the
 * console's prefix, which its IAM policy allows): more 5XX errors or model errors in a minute than the operator
 * allows, or a ModelLatency p90 above the threshold. Missing data (no traffic) is not breaching.
 */
export function standardAlarmInputs(endpoint: string, variant: string, alarms: StandardAlarms): PutMetricAlarmInput[] {
  const common = {
    Namespace: "AWS/SageMaker",
    Dimensions: [
      { Name: "EndpointName", Value: endpoint },
      { Name: "VariantName", Value: variant },
    ],
    Period: 60,
    EvaluationPeriods: 1,
    ComparisonOperator: "GreaterThanThreshold" as const,
    TreatMissingData: "notBreaching",
  };
  return [
    {
      ...common,
      AlarmName: `${endpoint}-rollback-5xx`,
      AlarmDescription: `Rolls an update of ${endpoint} back: more than ${alarms.max5xxPerMinute} 5XX errors in a minute.`,
      MetricName: "Invocation5XXErrors",
      Statistic: "Sum",
      Threshold: alarms.max5xxPerMinute,
    },
    {
      ...common,
      AlarmName: `${endpoint}-rollback-latency-p90`,
      AlarmDescription: `Rolls an update of ${endpoint} back: ModelLatency p90 above ${alarms.latencyP90Ms} ms in a minute.`,
      MetricName: "ModelLatency",
      ExtendedStatistic: "p90",
      Unit: "Microseconds",
      Threshold: alarms.latencyP90Ms * 1000,
    },
    {
      ...common,
      AlarmName: `${endpoint}-rollback-model-errors`,
      AlarmDescription: `Rolls an update of ${endpoint} back: more than ${alarms.maxModelErrorsPerMinute} model errors in a minute.`,
      MetricName: "InvocationModelErrors",
      Statistic: "Sum",
      Threshold: alarms.maxModelErrorsPerMinute,
    },
  ];
}

/** Creates or updates the standard alarms (PutMetricAlarm replaces an alarm of the same name); returns their names. */
export async function putStandardAlarms(
  cloudWatch: CloudWatchClient,
  endpoint: string,
  variant: string,
  alarms: StandardAlarms,
): Promise<string[]> {
  const inputs = standardAlarmInputs(endpoint, variant, alarms);
  for (const input of inputs) {
    await awsCall(`alarm "${input.AlarmName}"`, () => cloudWatch.send(new PutMetricAlarmCommand(input)));
  }
  return inputs.map((input) => input.AlarmName ?? "");
}

/** Each alarm's state, null where it could not be read (deleted, or outside what the console may describe). */
export async function alarmStates(
  cloudWatch: CloudWatchClient,
  names: readonly string[],
): Promise<{ name: string; state: string | null; reason: string | null }[]> {
  if (names.length === 0) return [];
  try {
    const { MetricAlarms = [] } = await cloudWatch.send(new DescribeAlarmsCommand({ AlarmNames: [...names] }));
    return names.map((name) => {
      const alarm = MetricAlarms.find((a) => a.AlarmName === name);
      return { name, state: alarm?.StateValue ?? null, reason: alarm?.StateReason ?? null };
    });
  } catch (error) {
    console.error(JSON.stringify({ level: "warn", msg: "rollback alarms not readable", error: String(error) }));
    return names.map((name) => ({ name, state: null, reason: null }));
  }
}
