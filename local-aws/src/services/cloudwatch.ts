import type {
  DeleteAlarmsCommandInput,
  DeleteAlarmsCommandOutput,
  DescribeAlarmHistoryCommandInput,
  DescribeAlarmHistoryCommandOutput,
  DescribeAlarmsCommandInput,
  DescribeAlarmsCommandOutput,
  PutMetricAlarmCommandInput,
  PutMetricAlarmCommandOutput,
  PutMetricDataCommandInput,
  PutMetricDataCommandOutput,
  SetAlarmStateCommandInput,
  SetAlarmStateCommandOutput,
} from "@aws-sdk/client-cloudwatch";
import type { AlarmEngine } from "../alarms/alarm-engine.ts";
import type { StoredAlarm } from "../alarms/metric-alarm.ts";
import type { MetricSource } from "../alarms/metric-source.ts";
import { statistic } from "../alarms/sagemaker-metrics.ts";
import type { MetricDatapoints } from "../metric-datapoints.ts";
import { AwsError } from "../wire/aws-error.ts";
import { cloudWatchInputShapes } from "../wire/generated/cloudwatch.ts";
import { withInputShapes } from "../wire/input-shapes.ts";
import type { JsonService } from "../wire/json-rpc.ts";
import { LOCAL_ACCOUNT_ID } from "../wire/request.ts";
import { servingOnly } from "../wire/served-members.ts";
import { asJsonOperations, type TypedOperation } from "../wire/typed-operations.ts";
import {
  CLOUDWATCH_VALIDATION_ERROR,
  checkMetricAlarm,
  checkMetricData,
  checkStateReasonData,
} from "./cloudwatch-rules.ts";
import { cloudWatchServedMembers } from "./cloudwatch-served.ts";

interface MetricQuery {
  Id?: string;
  Label?: string;
  ReturnData?: boolean;
  MetricStat?: {
    Metric?: { Namespace?: string; MetricName?: string; Dimensions?: { Name?: string; Value?: string }[] };
    Period?: number;
    Stat?: string;
  };
}

/** The alarm operations, each typed with the SDK's own input and output. */
type AlarmOperations = {
  DeleteAlarms: TypedOperation<DeleteAlarmsCommandInput, DeleteAlarmsCommandOutput>;
  DescribeAlarmHistory: TypedOperation<DescribeAlarmHistoryCommandInput, DescribeAlarmHistoryCommandOutput>;
  DescribeAlarms: TypedOperation<DescribeAlarmsCommandInput, DescribeAlarmsCommandOutput>;
  PutMetricAlarm: TypedOperation<PutMetricAlarmCommandInput, PutMetricAlarmCommandOutput>;
  PutMetricData: TypedOperation<PutMetricDataCommandInput, PutMetricDataCommandOutput>;
  SetAlarmState: TypedOperation<SetAlarmStateCommandInput, SetAlarmStateCommandOutput>;
};

function epochMs(value: unknown, field: string): number {
  if (typeof value !== "number") throw new AwsError("MissingParameter", `The parameter ${field} must be specified.`);
  return value * 1000;
}

/** A stored alarm as DescribeAlarms returns it (MetricAlarm; timestamps in epoch seconds). */
function describedAlarm(alarm: StoredAlarm) {
  return {
    ...alarm.definition,
    AlarmArn: alarm.arn,
    AlarmConfigurationUpdatedTimestamp: alarm.configurationUpdatedAt / 1000,
    StateValue: alarm.state,
    StateReason: alarm.stateReason,
    StateReasonData: alarm.stateReasonData,
    StateUpdatedTimestamp: alarm.stateUpdatedAt / 1000,
    StateTransitionedTimestamp: alarm.stateTransitionedAt / 1000,
  };
}

const notFound = (names: string[]) =>
  new AwsError("ResourceNotFound", `The named resource does not exist: [${names.join(", ")}].`, 404);

/**
 * CloudWatch (AWS JSON 1.0, query-compatible): GetMetricData over the local invocation samples and the datapoints
 * local services publish (asynchronous endpoints' backlog and per-request metrics) or callers put (PutMetricData:
 * custom metrics, which alarms read the same way), and metric alarms
 * (PutMetricAlarm, DescribeAlarms, SetAlarmState, DeleteAlarms) kept and evaluated by the alarm engine, with their
 * history (DescribeAlarmHistory: configuration updates and state changes).
 */
export function cloudWatchService(
  metrics: MetricSource,
  alarms: AlarmEngine,
  published?: MetricDatapoints,
  clock: () => number = Date.now,
): JsonService {
  return {
    target: "GraniteServiceVersion20100801",
    signingName: "monitoring",
    version: "1.0",
    queryCompatible: true,
    operations: {
      ...withInputShapes(
        "CloudWatch",
        cloudWatchInputShapes,
        servingOnly(
          "CloudWatch",
          cloudWatchServedMembers,
          asJsonOperations({
            PutMetricAlarm(input, { region, auth }) {
              alarms.put(checkMetricAlarm(input), region, LOCAL_ACCOUNT_ID, auth.principal);
              return {};
            },
            PutMetricData(input) {
              const { namespace, data } = checkMetricData(input as Record<string, unknown>, clock());
              if (!published)
                throw new AwsError("InternalFailure", "This control plane keeps no metric datapoints.", 500);
              for (const datum of data) {
                published.put(namespace, datum.metricName, datum.dimensions, datum.value, datum.unit, datum.timestamp);
              }
              return {};
            },
            DescribeAlarms(input) {
              const names = input.AlarmNames;
              const prefix = input.AlarmNamePrefix;
              if (names && prefix !== undefined) {
                throw new AwsError(
                  "InvalidParameterCombination",
                  "AlarmNames and AlarmNamePrefix cannot be specified together.",
                );
              }
              const types = input.AlarmTypes;
              const actionPrefix = input.ActionPrefix;
              const matching =
                types && !types.includes("MetricAlarm")
                  ? []
                  : alarms
                      .all()
                      .filter((a) => !names || names.includes(a.definition.AlarmName))
                      .filter((a) => prefix === undefined || a.definition.AlarmName.startsWith(prefix))
                      .filter((a) => input.StateValue === undefined || a.state === input.StateValue)
                      .filter(
                        (a) =>
                          actionPrefix === undefined ||
                          [
                            ...a.definition.AlarmActions,
                            ...a.definition.OKActions,
                            ...a.definition.InsufficientDataActions,
                          ].some((arn) => arn.startsWith(actionPrefix)),
                      );
              const max = typeof input.MaxRecords === "number" ? input.MaxRecords : 50;
              const offset = typeof input.NextToken === "string" ? Number.parseInt(input.NextToken, 10) : 0;
              if (!Number.isInteger(offset) || offset < 0) {
                throw new AwsError("InvalidNextToken", "The service returned an invalid NextToken.");
              }
              const page = matching.slice(offset, offset + max);
              return {
                MetricAlarms: page.map(describedAlarm),
                CompositeAlarms: [],
                NextToken: offset + max < matching.length ? String(offset + max) : undefined,
              };
            },
            SetAlarmState(input) {
              checkStateReasonData(input.StateReasonData);
              const name = input.AlarmName;
              const set = alarms.setState(name, input.StateValue, input.StateReason, input.StateReasonData);
              if (!set) throw notFound([name]);
              return {};
            },
            DescribeAlarmHistory(input) {
              const itemType = input.HistoryItemType;
              // Local mode records each alarm's configuration updates and state changes, not the runs of its actions
              // nor contributor items: asked for those, it says so rather than answer with none.
              if (itemType !== undefined && itemType !== "ConfigurationUpdate" && itemType !== "StateUpdate") {
                throw new AwsError(
                  "InvalidParameterValue",
                  `HistoryItemType ${itemType} is not recorded by local mode: it keeps ConfigurationUpdate and StateUpdate items.`,
                );
              }
              if (input.AlarmContributorId !== undefined) {
                throw new AwsError(
                  "InvalidParameterValue",
                  "Local mode has no multi-time-series alarms (AlarmContributorId).",
                );
              }
              const types = input.AlarmTypes;
              const max = typeof input.MaxRecords === "number" ? input.MaxRecords : 50;
              const offset = typeof input.NextToken === "string" ? Number.parseInt(input.NextToken, 10) : 0;
              if (!Number.isInteger(offset) || offset < 0 || String(offset) !== (input.NextToken ?? "0")) {
                throw new AwsError("InvalidNextToken", "The service returned an invalid NextToken.");
              }
              const matching =
                types && !types.includes("MetricAlarm")
                  ? []
                  : alarms.history.find({
                      alarmName: input.AlarmName,
                      itemType,
                      from: typeof input.StartDate === "number" ? input.StartDate * 1000 : undefined,
                      to: typeof input.EndDate === "number" ? input.EndDate * 1000 : undefined,
                      ascending: input.ScanBy === "TimestampAscending",
                    });
              return {
                AlarmHistoryItems: matching.slice(offset, offset + max).map((item) => ({
                  AlarmName: item.alarmName,
                  AlarmType: "MetricAlarm",
                  Timestamp: item.at / 1000,
                  HistoryItemType: item.itemType,
                  HistorySummary: item.summary,
                  HistoryData: item.data,
                })),
                NextToken: offset + max < matching.length ? String(offset + max) : undefined,
              };
            },
            DeleteAlarms(input) {
              const names = input.AlarmNames;
              const absent = names.filter((name) => !alarms.get(name));
              if (absent.length > 0) throw notFound(absent);
              alarms.delete(names);
              return {};
            },
          } satisfies AlarmOperations),
          "InvalidParameterValue",
        ),
        CLOUDWATCH_VALIDATION_ERROR,
      ),
      GetMetricData(input) {
        const from = epochMs(input.StartTime, "StartTime");
        const to = epochMs(input.EndTime, "EndTime");
        if (to <= from)
          throw new AwsError("InvalidParameterValue", "The parameter StartTime must be less than EndTime.");
        const queries = (input.MetricDataQueries ?? []) as MetricQuery[];
        if (!Array.isArray(queries) || queries.length === 0) {
          throw new AwsError("MissingParameter", "The parameter MetricDataQueries must be specified.");
        }
        const descending = input.ScanBy !== "TimestampAscending";
        const results = queries
          .filter((query) => query.ReturnData !== false)
          .map((query) => {
            const stat = query.MetricStat;
            const metric = stat?.Metric;
            if (!stat || !metric?.MetricName || !stat.Period || !stat.Stat) {
              throw new AwsError(
                "InvalidParameterValue",
                `Query ${query.Id}: the local control plane answers MetricStat queries (Metric, Period, Stat) only.`,
              );
            }
            const dims = Object.fromEntries((metric.Dimensions ?? []).map((d) => [d.Name ?? "", d.Value ?? ""]));
            const statName = stat.Stat;
            if (statistic([1], statName) === null) {
              throw new AwsError(
                "InvalidParameterValue",
                `The statistic ${statName} is not supported by the local control plane.`,
              );
            }
            const buckets = metrics.periodValues(
              {
                namespace: metric.Namespace ?? "",
                metricName: metric.MetricName,
                dimensions: dims,
                statistic: statName,
                periodMs: stat.Period * 1000,
                alignMs: from,
              },
              from,
              to,
            );
            const starts = [...buckets.keys()].sort((a, b) => (descending ? b - a : a - b));
            const timestamps = starts.map((start) => start / 1000);
            const values = starts.map((start) => statistic(buckets.get(start) ?? [], statName) ?? 0);
            return {
              Id: query.Id,
              Label: query.Label ?? metric.MetricName,
              Timestamps: timestamps,
              Values: values,
              StatusCode: "Complete",
            };
          });
        return { MetricDataResults: results, Messages: [] };
      },
    },
  };
}
