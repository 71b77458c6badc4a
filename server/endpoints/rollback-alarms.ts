import {
  type CloudWatchClient,
  DeleteAlarmsCommand,
  DescribeAlarmsCommand,
  PutMetricAlarmCommand,
  type PutMetricAlarmInput,
} from "@aws-sdk/client-cloudwatch";
import type { RollbackAlarms } from "../../contract/endpoints/update.ts";
import { awsCall } from "../aws/errors.ts";

type StandardAlarms = Extract<RollbackAlarms, { kind: "standard" }>;

/** What kind of endpoint the alarms watch: an asynchronous one publishes other metrics. */
export type EndpointKind = "real-time" | "asynchronous";

/**
 * The metric of failed invocations by kind of endpoint: SageMaker publishes InvocationModelErrors for real-time
 * endpoints only; the exhaustive list for asynchronous endpoints (developer guide, "Alarms and logs for tracking
 * metrics from asynchronous endpoints") has InvocationFailures instead ("If an invocation fails for any reason").
 */
const failureMetric: Record<EndpointKind, { metric: string; alarm: string; words: string }> = {
  "real-time": { metric: "InvocationModelErrors", alarm: "model-errors", words: "model errors" },
  asynchronous: { metric: "InvocationFailures", alarm: "invocation-failures", words: "failed invocations" },
};

/**
 * Every alarm name the console's rollback guards of an endpoint have had, the current kinds' and the earlier p90
 * latency alarm's: what deleting the endpoint deletes.
 */
export function rollbackGuardAlarmNames(endpoint: string): string[] {
  return ["5xx", "latency-average", "latency-p90", "model-errors", "invocation-failures"].map(
    (what) => `${endpoint}-rollback-${what}`,
  );
}

/**
 * The console's standard rollback alarms of an endpoint's variant, named `<endpoint>-rollback-<what>` (inside the
 * console's prefix, which its IAM policy allows): more 5XX errors or failed invocations in a minute than the
 * operator allows, or a ModelLatency average above the threshold. The average, because SageMaker lists ModelLatency's
 * valid statistics as Average, Sum, Min, Max and Sample Count (no percentile). Missing data (no traffic) is not
 * breaching.
 */
export function standardAlarmInputs(
  endpoint: string,
  variant: string,
  alarms: StandardAlarms,
  kind: EndpointKind,
): PutMetricAlarmInput[] {
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
  const failures = failureMetric[kind];
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
      AlarmName: `${endpoint}-rollback-latency-average`,
      AlarmDescription: `Rolls an update of ${endpoint} back: ModelLatency average above ${alarms.latencyAverageMs} ms in a minute.`,
      MetricName: "ModelLatency",
      Statistic: "Average",
      Unit: "Microseconds",
      Threshold: alarms.latencyAverageMs * 1000,
    },
    {
      ...common,
      AlarmName: `${endpoint}-rollback-${failures.alarm}`,
      AlarmDescription: `Rolls an update of ${endpoint} back: more than ${alarms.maxModelErrorsPerMinute} ${failures.words} in a minute.`,
      MetricName: failures.metric,
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
  kind: EndpointKind,
): Promise<string[]> {
  const inputs = standardAlarmInputs(endpoint, variant, alarms, kind);
  for (const input of inputs) {
    await awsCall(`alarm "${input.AlarmName}"`, () => cloudWatch.send(new PutMetricAlarmCommand(input)));
  }
  return inputs.map((input) => input.AlarmName ?? "");
}

/**
 * Deletes those of the named alarms that exist and answers their names. Exact names, never a prefix: another
 * endpoint's name can start with this one's. Describe first, so that deleting nothing is not an error.
 */
export async function deleteAlarmsIfPresent(cloudWatch: CloudWatchClient, names: readonly string[]): Promise<string[]> {
  const found = await awsCall(`alarms ${names.join(", ")}`, () =>
    cloudWatch.send(new DescribeAlarmsCommand({ AlarmNames: [...names] })),
  );
  const present = (found.MetricAlarms ?? []).map((alarm) => alarm.AlarmName ?? "").filter((n) => names.includes(n));
  if (present.length === 0) return [];
  await awsCall(`alarms ${present.join(", ")}`, () =>
    cloudWatch.send(new DeleteAlarmsCommand({ AlarmNames: present })),
  );
  return present;
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
