import type { StandardUnit, Statistic } from "@aws-sdk/client-cloudwatch";
import type { LocalPrincipal } from "../local-credentials.ts";
/** CloudWatch's alarm states. */
export type AlarmState = "OK" | "ALARM" | "INSUFFICIENT_DATA";

export type ComparisonOperator =
  | "GreaterThanOrEqualToThreshold"
  | "GreaterThanThreshold"
  | "LessThanThreshold"
  | "LessThanOrEqualToThreshold";

export type TreatMissingData = "breaching" | "notBreaching" | "ignore" | "missing";

/** A metric alarm's definition, as PutMetricAlarm takes it and DescribeAlarms returns it (MetricAlarm). */
export interface MetricAlarmDefinition {
  AlarmName: string;
  AlarmDescription?: string;
  ActionsEnabled: boolean;
  OKActions: string[];
  AlarmActions: string[];
  InsufficientDataActions: string[];
  MetricName: string;
  Namespace: string;
  Statistic?: Statistic;
  ExtendedStatistic?: string;
  Dimensions: { Name: string; Value: string }[];
  Period: number;
  Unit?: StandardUnit;
  EvaluationPeriods: number;
  DatapointsToAlarm?: number;
  Threshold: number;
  ComparisonOperator: ComparisonOperator;
  TreatMissingData?: TreatMissingData;
  EvaluateLowSampleCountPercentile?: "evaluate" | "ignore";
}

/** An alarm with its state, as the local store keeps it. Times are epoch milliseconds. */
export interface StoredAlarm {
  definition: MetricAlarmDefinition;
  arn: string;
  configurationUpdatedAt: number;
  state: AlarmState;
  stateReason: string;
  stateReasonData?: string;
  stateUpdatedAt: number;
  /** When the state last changed (StateTransitionedTimestamp); an update that keeps the state leaves it. */
  stateTransitionedAt: number;
  /**
   * Who last put the definition with PutMetricAlarm; its actions run only where that principal could act itself.
   * Absent for the alarms a service creates (Application Auto Scaling's target-tracking alarms).
   */
  putBy?: LocalPrincipal;
}

export function alarmArn(region: string, accountId: string, name: string): string {
  return `arn:aws:cloudwatch:${region}:${accountId}:alarm:${name}`;
}
