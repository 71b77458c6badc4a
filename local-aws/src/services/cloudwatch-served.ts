import type { CloudWatchInputShapesOperation } from "../wire/generated/cloudwatch.ts";
import type { Served } from "../wire/served-members.ts";

/**
 * The members of each CloudWatch operation that the local control plane acts on; any other member of the service
 * model is refused (wire/served-members.ts). Not served: alarm tags, composite alarms, evaluation windows and
 * intervals, warm-up and action configurations; PutMetricData's StatisticValues, Values and Counts, EntityMetricData and
 * StrictEntityValidation. Metric math and anomaly detection (Metrics, ThresholdMetricId,
 * EvaluationCriteria) are listed as served so that checkMetricAlarm's own refusal answers.
 */
export const cloudWatchServedMembers: Record<CloudWatchInputShapesOperation, Served> = {
  DeleteAlarms: "served",
  DescribeAlarmHistory: "served",
  DescribeAlarms: {
    AlarmNames: "served",
    AlarmNamePrefix: "served",
    AlarmTypes: "served",
    StateValue: "served",
    ActionPrefix: "served",
    MaxRecords: "served",
    NextToken: "served",
  },
  PutMetricAlarm: {
    AlarmName: "served",
    AlarmDescription: "served",
    ActionsEnabled: "served",
    OKActions: "served",
    AlarmActions: "served",
    InsufficientDataActions: "served",
    MetricName: "served",
    Namespace: "served",
    Statistic: "served",
    ExtendedStatistic: "served",
    Dimensions: "served",
    Period: "served",
    Unit: "served",
    EvaluationPeriods: "served",
    DatapointsToAlarm: "served",
    Threshold: "served",
    ComparisonOperator: "served",
    TreatMissingData: "served",
    EvaluateLowSampleCountPercentile: "served",
    Metrics: "served",
    ThresholdMetricId: "served",
    EvaluationCriteria: "served",
  },
  // Each datum's Value is stored raw (metric-datapoints.ts); statistic sets, value arrays and entities are not.
  PutMetricData: {
    Namespace: "served",
    MetricData: {
      MetricName: "served",
      Dimensions: "served",
      Timestamp: "served",
      Value: "served",
      Unit: "served",
      StorageResolution: "served",
    },
  },
  SetAlarmState: "served",
};
