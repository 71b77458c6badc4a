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

/** One metric datum as local CloudWatch stores it: a raw value at a time (epoch ms), with its series. */
export interface CheckedDatum {
  metricName: string;
  dimensions: Record<string, string>;
  timestamp: number;
  value: number;
  unit: string;
}

interface MetricDatumInput {
  MetricName: string;
  Dimensions?: { Name: string; Value: string }[];
  Timestamp?: number | string;
  Value?: number;
  Unit?: string;
  StorageResolution?: number;
}

const TWO_WEEKS_MS = 14 * 24 * 3_600_000;
const TWO_HOURS_MS = 2 * 3_600_000;
/** "Values must be in the range of -2^360 to 2^360" (PutMetricData, MetricDatum.Value). */
const VALUE_LIMIT = 2 ** 360;

/**
 * What the PutMetricData reference says in prose (its members' lengths, the 30 dimensions and the enums come from
 * the service model): "Each request is also limited to no more than 1000 different metrics"; a namespace must not
 * begin with "AWS/" ("To avoid conflicts with Amazon Web Services service namespaces"); "Values must be in the range
 * of -2^360 to 2^360. In addition, special values (for example, NaN, +Infinity, -Infinity) are not supported";
 * StorageResolution "Valid values are 1 and 60"; a dimension name once per datum. The user guide (Publishing custom
 * metrics) takes time stamps "up to two weeks in the past and up to two hours into the future". Local mode stores
 * each datum's Value (MetricData's other forms, StatisticValues and Values with Counts, are refused by the served
 * members: cloudwatch-served.ts).
 */
export function checkMetricData(
  raw: Record<string, unknown>,
  now: number,
): { namespace: string; data: CheckedDatum[] } {
  const namespace = raw.Namespace as string;
  if (namespace.startsWith("AWS/")) {
    throw invalid(
      `The value ${namespace} for parameter Namespace is invalid: namespaces starting with AWS/ are reserved for AWS services.`,
    );
  }
  const items = raw.MetricData as MetricDatumInput[] | undefined;
  if (items === undefined) throw missing("MetricData");
  if (items.length === 0 || items.length > 1000) {
    throw invalid("The collection MetricData must contain from 1 to 1000 items.");
  }
  return {
    namespace,
    data: items.map((item, index) => {
      const where = `MetricData.member.${index + 1}`;
      if (item.Value === undefined) {
        throw new AwsError(
          "MissingParameter",
          `${where}: the local control plane stores MetricData items with a Value (StatisticValues and Values are not served locally).`,
        );
      }
      if (!Number.isFinite(item.Value) || Math.abs(item.Value) > VALUE_LIMIT) {
        throw invalid(
          `The value ${item.Value} for parameter ${where}.Value is invalid: values are finite, from -2^360 to 2^360.`,
        );
      }
      if (item.StorageResolution !== undefined && item.StorageResolution !== 1 && item.StorageResolution !== 60) {
        throw invalid(
          `The value ${item.StorageResolution} for parameter ${where}.StorageResolution is invalid: use 1 or 60.`,
        );
      }
      const dimensions: Record<string, string> = {};
      for (const dimension of item.Dimensions ?? []) {
        if (dimension.Name in dimensions) {
          throw invalid(`The dimension ${dimension.Name} is given more than once in ${where}.Dimensions.`);
        }
        dimensions[dimension.Name] = dimension.Value;
      }
      const timestamp =
        item.Timestamp === undefined
          ? now
          : typeof item.Timestamp === "number"
            ? item.Timestamp * 1000
            : Date.parse(item.Timestamp);
      if (!Number.isFinite(timestamp) || timestamp < now - TWO_WEEKS_MS || timestamp > now + TWO_HOURS_MS) {
        throw invalid(
          `The parameter ${where}.Timestamp must be a time no more than two weeks in the past and no more than two hours in the future.`,
        );
      }
      return { metricName: item.MetricName, dimensions, timestamp, value: item.Value, unit: item.Unit ?? "None" };
    }),
  };
}
