import type { StandardUnit, Statistic } from "@aws-sdk/client-cloudwatch";
import type { MetricAlarmDefinition, TreatMissingData } from "../alarms/metric-alarm.ts";
import { PERCENTILE_PATTERN } from "../alarms/sagemaker-endpoint-metrics.ts";
import { AwsError } from "../wire/aws-error.ts";

/**
 * What CloudWatch's PutMetricAlarm reference says in prose, for the alarm operations local mode serves (their
 * constraint traits are generated from the service model: ../wire/generated/cloudwatch.ts). Its validation errors
 * carry the query protocol's code, `ValidationError`.
 */
export const CLOUDWATCH_VALIDATION_ERROR = "ValidationError";

const invalid = (message: string) => new AwsError("InvalidParameterValue", message);
const combination = (message: string) => new AwsError("InvalidParameterCombination", message);
const missing = (name: string) => new AwsError("MissingParameter", `The parameter ${name} is required.`);

const treatments: readonly TreatMissingData[] = ["breaching", "notBreaching", "ignore", "missing"];
const staticOperators = [
  "GreaterThanOrEqualToThreshold",
  "GreaterThanThreshold",
  "LessThanThreshold",
  "LessThanOrEqualToThreshold",
] as const;

interface PutMetricAlarmInput {
  AlarmName: string;
  AlarmDescription?: string;
  ActionsEnabled?: boolean;
  OKActions?: string[];
  AlarmActions?: string[];
  InsufficientDataActions?: string[];
  MetricName?: string;
  Namespace?: string;
  Statistic?: string;
  ExtendedStatistic?: string;
  Dimensions?: { Name: string; Value: string }[];
  Period?: number;
  Unit?: string;
  EvaluationPeriods?: number;
  DatapointsToAlarm?: number;
  Threshold?: number;
  ComparisonOperator?: string;
  TreatMissingData?: string;
  EvaluateLowSampleCountPercentile?: string;
  Metrics?: unknown;
  ThresholdMetricId?: string;
  EvaluationCriteria?: unknown;
}

/**
 * What the PutMetricAlarm reference says in prose, for a static-threshold alarm on one metric (the kind local mode
 * evaluates): MetricName with Namespace and Period, exactly one of Statistic and ExtendedStatistic, a Period of 10,
 * 20, 30 or a multiple of 60, at most one day of evaluation for periods under an hour (seven days otherwise),
 * DatapointsToAlarm no more than EvaluationPeriods. Metric math, anomaly detection and PromQL alarms are refused
 * with a message that says local mode does not evaluate them.
 */
export function checkMetricAlarm(raw: Record<string, unknown>): MetricAlarmDefinition {
  const input = raw as unknown as PutMetricAlarmInput;
  if (input.Metrics !== undefined || input.ThresholdMetricId !== undefined || input.EvaluationCriteria !== undefined) {
    throw invalid(
      "The local control plane evaluates static-threshold alarms on one metric (MetricName); metric math, anomaly detection and PromQL alarms are not served locally.",
    );
  }
  if (input.MetricName === undefined) throw missing("MetricName");
  if (input.Namespace === undefined) throw missing("Namespace");
  if (input.Period === undefined) throw missing("Period");
  if (input.EvaluationPeriods === undefined) throw missing("EvaluationPeriods");
  if (input.Threshold === undefined) throw missing("Threshold");
  if (input.ComparisonOperator === undefined) throw missing("ComparisonOperator");
  if ((input.Statistic === undefined) === (input.ExtendedStatistic === undefined)) {
    throw combination("Exactly one of Statistic or ExtendedStatistic must be specified.");
  }
  if (input.ExtendedStatistic !== undefined && !PERCENTILE_PATTERN.test(input.ExtendedStatistic)) {
    throw invalid(
      `The extended statistic ${input.ExtendedStatistic} is not served locally; local alarms compute percentiles (p0 to p100, e.g. p90 or p99.9).`,
    );
  }
  const operator = staticOperators.find((o) => o === input.ComparisonOperator);
  if (!operator) {
    throw invalid(`The comparison operator ${input.ComparisonOperator} is for anomaly detection alarms only.`);
  }
  const period = input.Period;
  if (![10, 20, 30].includes(period) && period % 60 !== 0) {
    throw invalid("The parameter Period must be 10, 20, 30 or a multiple of 60.");
  }
  const total = period * input.EvaluationPeriods;
  if (total > 604_800 || (period < 3600 && total > 86_400)) {
    throw invalid(
      "Period multiplied by EvaluationPeriods must not exceed 86400 seconds (one day) for periods under an hour, nor 604800 seconds (seven days) otherwise.",
    );
  }
  if (input.DatapointsToAlarm !== undefined && input.DatapointsToAlarm > input.EvaluationPeriods) {
    throw invalid("DatapointsToAlarm must be less than or equal to EvaluationPeriods.");
  }
  const treatMissingData = input.TreatMissingData;
  if (treatMissingData !== undefined && !treatments.includes(treatMissingData as TreatMissingData)) {
    throw invalid(
      `The value ${treatMissingData} for parameter TreatMissingData is invalid; use breaching, notBreaching, ignore or missing.`,
    );
  }
  const lowSamples = input.EvaluateLowSampleCountPercentile;
  if (lowSamples !== undefined && lowSamples !== "evaluate" && lowSamples !== "ignore") {
    throw invalid(
      `The value ${lowSamples} for parameter EvaluateLowSampleCountPercentile is invalid; use evaluate or ignore.`,
    );
  }
  return {
    AlarmName: input.AlarmName,
    AlarmDescription: input.AlarmDescription,
    ActionsEnabled: input.ActionsEnabled ?? true,
    OKActions: input.OKActions ?? [],
    AlarmActions: input.AlarmActions ?? [],
    InsufficientDataActions: input.InsufficientDataActions ?? [],
    MetricName: input.MetricName,
    Namespace: input.Namespace,
    // Both were checked against the service model's enums (withInputShapes) before this rule ran.
    Statistic: input.Statistic as Statistic | undefined,
    ExtendedStatistic: input.ExtendedStatistic,
    Dimensions: input.Dimensions ?? [],
    Period: period,
    Unit: input.Unit as StandardUnit | undefined,
    EvaluationPeriods: input.EvaluationPeriods,
    DatapointsToAlarm: input.DatapointsToAlarm,
    Threshold: input.Threshold,
    ComparisonOperator: operator,
    TreatMissingData: treatMissingData as TreatMissingData | undefined,
    EvaluateLowSampleCountPercentile: lowSamples as "evaluate" | "ignore" | undefined,
  };
}

/** SetAlarmState's StateReasonData must be JSON (InvalidFormat otherwise). */
export function checkStateReasonData(data: unknown): void {
  if (typeof data !== "string") return;
  try {
    JSON.parse(data);
  } catch {
    throw new AwsError("InvalidFormat", "Data was not syntactically valid JSON.");
  }
}
