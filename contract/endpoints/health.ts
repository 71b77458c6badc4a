import type { EndpointAlarm } from "./alarms.ts";
import type { MetricSeries } from "./metrics.ts";

/** The window the console's health at a glance reads: long enough for a few 1-minute periods. */
export const HEALTH_WINDOW = { minutes: 15, periodSeconds: 60 } as const;

/** Above this share of failed invocations an endpoint is degraded even while no alarm has gone off. */
export const DEGRADED_ERROR_RATE = 0.05;

export interface EndpointHealth {
  level: "healthy" | "degraded" | "alarm" | "unknown";
  /** Invocations over the window (CloudWatch `Invocations`, Sum). */
  invocations: number;
  /** Failed invocations (`Invocation4XXErrors` + `Invocation5XXErrors`, Sum): busy answers and timeouts too. */
  errors: number;
  /** errors / invocations; null without invocations. */
  errorRate: number | null;
  /** The console's alarms on the endpoint that are in ALARM. */
  alarming: string[];
  /** The same, in words. */
  text: string;
}

const sum = (series: readonly MetricSeries[], metric: MetricSeries["metric"]) =>
  series.find((entry) => entry.metric === metric)?.points.reduce((total, point) => total + point.value, 0) ?? 0;

const percent = (share: number) => `${(share * 100).toFixed(share > 0 && share < 0.1 ? 1 : 0)}%`;

/**
 * An endpoint's health at a glance from its CloudWatch metrics over HEALTH_WINDOW and its alarms: any alarm in
 * ALARM wins, then a failure rate above DEGRADED_ERROR_RATE; null metrics or alarms (not read yet) leave it unknown.
 */
export function endpointHealth(
  series: readonly MetricSeries[] | null,
  alarms: readonly Pick<EndpointAlarm, "name" | "state">[] | null,
): EndpointHealth {
  const alarming = (alarms ?? []).filter((alarm) => alarm.state === "ALARM").map((alarm) => alarm.name);
  const invocations = series ? sum(series, "Invocations") : 0;
  const errors = series ? sum(series, "Invocation4XXErrors") + sum(series, "Invocation5XXErrors") : 0;
  const calls = Math.max(invocations, errors);
  const errorRate = calls > 0 ? errors / calls : null;
  const failures =
    series === null
      ? "failures not read yet"
      : errorRate === null
        ? "no invocations in 15 min"
        : `${percent(errorRate)} of ${calls} invocation${calls === 1 ? "" : "s"} failed in 15 min`;
  if (alarming.length > 0) {
    const alarmsText = `${alarming.length} alarm${alarming.length === 1 ? "" : "s"} in ALARM`;
    return { level: "alarm", invocations, errors, errorRate, alarming, text: `${alarmsText}; ${failures}` };
  }
  if (series === null || alarms === null) {
    return { level: "unknown", invocations, errors, errorRate, alarming, text: "Health not read yet" };
  }
  const level = errorRate !== null && errorRate > DEGRADED_ERROR_RATE ? "degraded" : "healthy";
  return { level, invocations, errors, errorRate, alarming, text: failures };
}
