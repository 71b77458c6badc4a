import type { StandardUnit } from "@aws-sdk/client-cloudwatch";
import type { AlarmEngine } from "../alarms/alarm-engine.ts";
import type { MetricAlarmDefinition } from "../alarms/metric-alarm.ts";
import type { PolicyDoc } from "./scaling-store.ts";

/**
 * The alarms Application Auto Scaling creates for a target-tracking policy, as it creates them on AWS: AlarmHigh when
 * the metric stays above the target for 3 one-minute datapoints (scale out), AlarmLow when it stays below 90 % of the
 * target for 15 (scale in; none when scale-in is disabled), both acting on the policy. Named
 * `TargetTracking-<resource>-AlarmHigh|AlarmLow-<uuid>`, described "DO NOT EDIT OR DELETE". Only customized metrics
 * get alarms locally: the predefined SageMakerVariantInvocationsPerInstance is not a metric local CloudWatch has.
 */
export function createTargetTrackingAlarms(
  alarms: AlarmEngine,
  policy: PolicyDoc,
  region: string,
  accountId: string,
): PolicyDoc["Alarms"] {
  const config = policy.TargetTrackingScalingPolicyConfiguration;
  const metric = config?.CustomizedMetricSpecification;
  if (!config || !metric) return [];
  const { MetricName, Namespace, Statistic } = metric;
  // checkScalingPolicy refuses a customized metric that lacks one of them.
  if (!MetricName || !Namespace || !Statistic) throw new Error("a customized metric passed without its name");
  const base = {
    AlarmDescription: `DO NOT EDIT OR DELETE. For TargetTrackingScaling policy ${policy.PolicyARN}.`,
    ActionsEnabled: true,
    OKActions: [],
    AlarmActions: [policy.PolicyARN],
    InsufficientDataActions: [],
    MetricName,
    Namespace,
    Statistic,
    Dimensions: metric.Dimensions ?? [],
    // Application Auto Scaling's MetricUnit is a free string in its model; CloudWatch's units are what it names.
    Unit: metric.Unit as StandardUnit | undefined,
    Period: 60,
  } satisfies Partial<MetricAlarmDefinition>;
  const id = crypto.randomUUID();
  const definitions: MetricAlarmDefinition[] = [
    {
      ...base,
      AlarmName: `TargetTracking-${policy.ResourceId}-AlarmHigh-${id}`,
      EvaluationPeriods: 3,
      DatapointsToAlarm: 3,
      Threshold: config.TargetValue,
      ComparisonOperator: "GreaterThanThreshold",
    },
  ];
  if (!config.DisableScaleIn) {
    definitions.push({
      ...base,
      AlarmName: `TargetTracking-${policy.ResourceId}-AlarmLow-${id}`,
      EvaluationPeriods: 15,
      DatapointsToAlarm: 15,
      Threshold: config.TargetValue * 0.9,
      ComparisonOperator: "LessThanThreshold",
    });
  }
  return definitions.map((definition) => {
    const alarm = alarms.put(definition, region, accountId);
    return { AlarmName: definition.AlarmName, AlarmARN: alarm.arn };
  });
}

/** Deletes the alarms a target-tracking policy owns (the policy is replaced or deleted). */
export function deleteTargetTrackingAlarms(alarms: AlarmEngine, policy: PolicyDoc | undefined): void {
  if (policy?.Alarms.length) alarms.delete(policy.Alarms.map((alarm) => alarm.AlarmName));
}

export const isScaleInAlarm = (alarmName: string) => /-AlarmLow-[0-9a-f-]{36}$/.test(alarmName);
