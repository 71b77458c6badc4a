import type { AlarmCrossing, RollbackCause } from "@/contract/endpoints/deployment-status.ts";
import { timestampText } from "../ui/timestamp.tsx";

/**
 * Rollback causes and alarm reasons in the words of their real cause and in the form's units. A CloudWatch reason
 * quotes ModelLatency in microseconds ("[2500000.0 (07/12/26 10:00:00)] was greater than the threshold (2000000.0)");
 * the latency alarm's form field is in ms. An abort from the console sets a rollback alarm to ALARM with its own
 * reason (server/endpoints/abort-update.ts): that rollback is the person's, not the alarm's.
 */
const LATENCY_ALARM = /-rollback-latency-average\b/;
const ABORT = /Abort and roll back, asked from the console by ([^)\n]+)/;

const ms = (microseconds: string) => `${Number((Number(microseconds) / 1000).toFixed(3))} ms`;

/** The datapoints and threshold of a ModelLatency alarm's reason, from microseconds to ms. */
export function latencyReasonInMs(reason: string): string {
  return reason
    .replace(/(\[|, )(-?\d+(?:\.\d+)?)(?= \()/g, (_, before: string, value: string) => `${before}${ms(value)}`)
    .replace(/the threshold \((-?\d+(?:\.\d+)?)\)/g, (_, value: string) => `the threshold (${ms(value)})`);
}

/** Who or what rolled an update back, when it was an abort from the console; null when an alarm did. */
export function abortedBy(reason: string): string | null {
  return ABORT.exec(reason)?.[1]?.trim() ?? null;
}

const figure = (value: number, unit: string) => `${Number(value.toFixed(3))}${unit ? ` ${unit}` : ""}`;

/** The datapoint that moved an alarm to ALARM against its threshold: "ModelLatency average 2512.345 ms > threshold 2000 ms". */
export function crossingText(crossing: AlarmCrossing): string {
  const { metric, statistic, comparison, value, threshold, unit } = crossing;
  return `${metric} ${statistic.toLowerCase()} ${figure(value, unit)} ${comparison} threshold ${figure(threshold, unit)}`;
}

/** The endpoint page's title and words for why the last update went back, from the cause the console decided. */
export function rollbackCauseText(cause: RollbackCause, timeZone?: string): { title: string; text: string } {
  switch (cause.kind) {
    case "stopped":
      return {
        title: "Last update stopped",
        text: `Stopped by ${cause.by} at ${timestampText(cause.at, timeZone)}; no alarm found a problem (the console sets a rollback alarm to ALARM because SageMaker stops an update only on an alarm).`,
      };
    case "alarm":
      return {
        title: "Last update rolled back",
        text: `Rolled back: alarm ${cause.alarm} went to ALARM at ${timestampText(cause.at, timeZone)} (${cause.crossing ? crossingText(cause.crossing) : cause.reason}).`,
      };
    case "failed":
      return { title: "Last update failed", text: `Failed: ${cause.reason}` };
  }
}

/** A rollback alarm's reason as the Updates card words it. */
export function alarmReasonText(alarmName: string, reason: string): string {
  if (abortedBy(reason)) return `set to ALARM by an abort from the console, asked by ${abortedBy(reason)}`;
  return LATENCY_ALARM.test(alarmName) ? latencyReasonInMs(reason) : reason;
}
