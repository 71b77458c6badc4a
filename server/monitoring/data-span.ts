import { type MonitoringWindow, monitoringWindowIds } from "../../contract/endpoints/monitoring.ts";
import { EVALUATION_INFERENCE_PREFIX } from "../../contract/evaluate/evaluation-traffic.ts";
import type { Store } from "../store/store.ts";
import { DECISION_RETENTION_MS } from "./monitoring-store.ts";
import { windowBounds } from "./monitoring-summary.ts";

/** First and last minute holding a decision, of the last 7 days. */
export interface DataSpan {
  fromMinute: number;
  toMinute: number;
}

/**
 * The minutes of the last 7 days that hold the decisions the view counts: production's rollups, and evaluation
 * decisions too when they are asked for. Null when there are none.
 */
export async function dataSpan(
  store: Store,
  endpointName: string,
  now: Date,
  includeEvaluation: boolean,
): Promise<DataSpan | null> {
  const sinceMs = now.getTime() - DECISION_RETENTION_MS;
  const production = await store
    .selectFrom("decision_rollups")
    .select((eb) => [eb.fn.min<number>("minute").as("first"), eb.fn.max<number>("minute").as("last")])
    .where("endpoint_name", "=", endpointName)
    .where("minute", ">=", Math.floor(sinceMs / 60_000))
    .executeTakeFirst();
  const spans: (number | null | undefined)[] = [production?.first, production?.last];
  if (includeEvaluation) {
    const evaluation = await store
      .selectFrom("captured_decisions")
      .select((eb) => [eb.fn.min<number>("at_ms").as("first"), eb.fn.max<number>("at_ms").as("last")])
      .where("endpoint_name", "=", endpointName)
      .where("at_ms", ">=", sinceMs)
      .where("inference_id", "like", `${EVALUATION_INFERENCE_PREFIX}%`)
      .executeTakeFirst();
    const minute = (ms: number | null | undefined) =>
      ms === null || ms === undefined ? null : Math.floor(ms / 60_000);
    spans.push(minute(evaluation?.first), minute(evaluation?.last));
  }
  const minutes = spans.filter((minute): minute is number => minute !== null && minute !== undefined).map(Number);
  if (minutes.length === 0) return null;
  return { fromMinute: Math.min(...minutes), toMinute: Math.max(...minutes) };
}

/** The smallest window that holds the whole span; the widest when there is no span (nothing to show in any). */
export function spanWindow(span: DataSpan | null, now: Date): MonitoringWindow {
  const widest = monitoringWindowIds[monitoringWindowIds.length - 1] ?? "7d";
  if (!span) return widest;
  return monitoringWindowIds.find((window) => windowBounds(window, now).fromMinute <= span.fromMinute) ?? widest;
}
