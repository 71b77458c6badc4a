import type { EndpointMetrics } from "@/contract/endpoints/metrics.ts";

/** The standard latency alarm's threshold when the endpoint has no recent latency to go by, in ms. */
export const STANDARD_LATENCY_ALARM_MS = 2000;

export interface LatencyAlarmDefault {
  /** Mean of the window's ModelLatency averages, in ms. */
  recentAverageMs: number;
  /** The highest period average of the window, in ms. */
  highestMs: number;
  /** Twice the highest, rounded up to 100 ms, and never below the standard threshold. */
  thresholdMs: number;
}

/**
 * A latency alarm threshold the endpoint's recent latency does not already cross: a threshold under the current
 * average rolls the first canary back on a datapoint from before the update. CloudWatch's ModelLatency is in
 * microseconds; the alarm form and its reason speak milliseconds. Null without a latency datapoint.
 */
export function latencyAlarmDefault(metrics: EndpointMetrics | undefined): LatencyAlarmDefault | null {
  const series = metrics?.series.find((candidate) => candidate.metric === "ModelLatency");
  const averagesMs = (series?.points ?? []).map((point) => point.value / 1000);
  if (averagesMs.length === 0) return null;
  const highestMs = Math.max(...averagesMs);
  return {
    recentAverageMs: averagesMs.reduce((sum, value) => sum + value, 0) / averagesMs.length,
    highestMs,
    thresholdMs: Math.max(STANDARD_LATENCY_ALARM_MS, Math.ceil((2 * highestMs) / 100) * 100),
  };
}
