import type { AlarmState, ComparisonOperator, MetricAlarmDefinition } from "./metric-alarm.ts";
import { PERCENTILE_PATTERN } from "./sagemaker-endpoint-metrics.ts";
import { statistic } from "./sagemaker-metrics.ts";

/** One period of the evaluation range: its start (epoch ms) and the raw values in it (none: missing). */
export interface PeriodData {
  start: number;
  values: number[];
}

export interface Evaluation {
  /** Undefined: keep the current state (`ignore` with nothing to evaluate, or a low-sample percentile ignored). */
  state: AlarmState | undefined;
  reason: string;
  reasonData: string;
}

const compare: Record<ComparisonOperator, { test: (v: number, t: number) => boolean; words: string }> = {
  GreaterThanThreshold: { test: (v, t) => v > t, words: "greater than" },
  GreaterThanOrEqualToThreshold: { test: (v, t) => v >= t, words: "greater than or equal to" },
  LessThanThreshold: { test: (v, t) => v < t, words: "less than" },
  LessThanOrEqualToThreshold: { test: (v, t) => v <= t, words: "less than or equal to" },
};

/** `dd/MM/yy HH:mm:ss` in UTC, as CloudWatch prints datapoints in a state reason. */
function reasonTime(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${two(d.getUTCFullYear() % 100)} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

const shownNumber = (n: number) => (Number.isInteger(n) ? n.toFixed(1) : String(n));

/**
 * The samples a percentile needs to be statistically significant: CloudWatch wants 1/(1 - p) data points, so p90
 * needs 10 and p99 needs 100. With EvaluateLowSampleCountPercentile `ignore`, a period with fewer leaves the state
 * as it is.
 */
function significantSamples(percentileStat: string): number {
  const p = Number(percentileStat.slice(1)) / 100;
  return p >= 1 ? Number.POSITIVE_INFINITY : Math.ceil(1 / (1 - p) - 1e-9);
}

/**
 * CloudWatch's evaluation of a metric alarm over its evaluation range (the last EvaluationPeriods periods, oldest
 * first), as its user guide describes it: each period's statistic is compared with the threshold; the alarm goes to
 * ALARM when at least DatapointsToAlarm (M, default N) of the N data points breach, to OK otherwise; missing data
 * points follow TreatMissingData (`missing`, the default: all missing is INSUFFICIENT_DATA and otherwise only the
 * present points count; `breaching`/`notBreaching`: they count as such; `ignore`: only present points count, and
 * with none the state stays).
 */
export function evaluateAlarm(alarm: MetricAlarmDefinition, range: PeriodData[], now: number): Evaluation {
  const stat = alarm.Statistic ?? alarm.ExtendedStatistic ?? "";
  const n = alarm.EvaluationPeriods;
  const m = alarm.DatapointsToAlarm ?? n;
  const treat = alarm.TreatMissingData ?? "missing";
  const { test, words } = compare[alarm.ComparisonOperator];
  const lowSampleIgnored =
    PERCENTILE_PATTERN.test(stat) &&
    alarm.EvaluateLowSampleCountPercentile === "ignore" &&
    range.some((period) => period.values.length > 0 && period.values.length < significantSamples(stat));
  const points = range
    .filter((period) => period.values.length > 0)
    .map((period) => ({
      start: period.start,
      sampleCount: period.values.length,
      value: statistic(period.values, stat) ?? 0,
    }));
  const missing = range.length - points.length;
  const breachingPoints = points.filter((point) => test(point.value, alarm.Threshold)).length;
  const breaching = breachingPoints + (treat === "breaching" ? missing : 0);
  const reasonData = JSON.stringify({
    version: "1.0",
    queryDate: new Date(now).toISOString(),
    startDate: range[0] ? new Date(range[0].start).toISOString() : undefined,
    statistic: stat,
    period: alarm.Period,
    recentDatapoints: points.map((point) => point.value),
    threshold: alarm.Threshold,
    evaluatedDatapoints: points
      .slice()
      .reverse()
      .map((point) => ({
        timestamp: new Date(point.start).toISOString(),
        sampleCount: point.sampleCount,
        value: point.value,
      })),
  });
  const listed = `[${points
    .slice()
    .reverse()
    .map((point) => `${shownNumber(point.value)} (${reasonTime(point.start)})`)
    .join(", ")}]`;
  if (lowSampleIgnored) {
    return { state: undefined, reason: "Percentile with too few samples ignored.", reasonData };
  }
  if (points.length === 0 && (treat === "missing" || treat === "ignore")) {
    return {
      state: treat === "missing" ? "INSUFFICIENT_DATA" : undefined,
      reason: `Insufficient Data: ${n} datapoint${n === 1 ? " was" : "s were"} unknown.`,
      reasonData,
    };
  }
  const threshold = `the threshold (${shownNumber(alarm.Threshold)})`;
  if (breaching >= m) {
    return {
      state: "ALARM",
      reason: `Threshold Crossed: ${breaching} out of the last ${n} datapoints ${listed} ${breaching === 1 ? "was" : "were"} ${words} ${threshold} (minimum ${m} datapoint${m === 1 ? "" : "s"} for OK -> ALARM transition).`,
      reasonData,
    };
  }
  return {
    state: "OK",
    reason: `Threshold Crossed: ${points.length} datapoint${points.length === 1 ? "" : "s"} ${listed} ${points.length === 1 ? "was" : "were"} not ${words} ${threshold}.`,
    reasonData,
  };
}

/** The evaluation range ending at the last complete period before `now`: N periods aligned to the epoch. */
export function evaluationRange(alarm: MetricAlarmDefinition, now: number): { from: number; to: number } {
  const period = alarm.Period * 1000;
  const to = Math.floor(now / period) * period;
  return { from: to - alarm.EvaluationPeriods * period, to };
}
