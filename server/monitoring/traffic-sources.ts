import { TOP_PROBABILITY_BINS, type TrafficSources } from "../../contract/endpoints/monitoring.ts";
import { EVALUATION_INFERENCE_PREFIX, GATEWAY_INFERENCE_PREFIX } from "../../contract/evaluate/evaluation-traffic.ts";
import type { Store } from "../store/store.ts";
import { emptyBins, LATENCY_BINS, latencyBin, topProbabilityBin } from "./histograms.ts";
import type { Rollup } from "./monitoring-store.ts";

/**
 * What the rollups cannot say: they hold production only and do not keep an InferenceId. Both figures here are
 * read from the single captured decisions (kept 7 days, as long as the widest window), so a window's gateway count
 * and its evaluation traffic come from the same records the rollups were folded from.
 */
interface DecisionsOf {
  endpointName: string;
  fromMs: number;
  toMs: number;
  variant: string | undefined;
}

function capturedBetween(store: Store, of: DecisionsOf) {
  let query = store
    .selectFrom("captured_decisions")
    .where("endpoint_name", "=", of.endpointName)
    .where("at_ms", ">=", of.fromMs)
    .where("at_ms", "<", of.toMs);
  if (of.variant !== undefined) query = query.where("variant", "=", of.variant);
  return query;
}

/**
 * The window's evaluation decisions as rollups of one decision each, to be summed with production's when an
 * operator asks to see evaluation traffic.
 */
export async function evaluationRollups(store: Store, of: DecisionsOf): Promise<Rollup[]> {
  const rows = await capturedBetween(store, of)
    .where("inference_id", "like", `${EVALUATION_INFERENCE_PREFIX}%`)
    .select(["variant", "at_ms", "kind", "chosen", "top_probability", "latency_ms"])
    .execute();
  return rows.map((row) => {
    const topBins = emptyBins(TOP_PROBABILITY_BINS);
    topBins[topProbabilityBin(row.top_probability)] = 1;
    const latencyBins = emptyBins(LATENCY_BINS);
    if (row.latency_ms !== null) latencyBins[latencyBin(row.latency_ms)] = 1;
    return {
      variant: row.variant,
      minute: Math.floor(row.at_ms / 60_000),
      kind: row.kind,
      chosen: row.chosen,
      decisions: 1,
      topBins,
      latencyBins,
      latencySumMs: row.latency_ms ?? 0,
      latencyCount: row.latency_ms === null ? 0 : 1,
    };
  });
}

/** A gateway call to the endpoint is recorded within a minute of its decision's capture. */
const GATEWAY_RECORD_SLACK_MS = 60_000;

/** Whether the gateway recorded a call to the endpoint in the window (gateway_usage, indexed by endpoint and time). */
async function gatewayCalled(store: Store, of: DecisionsOf): Promise<boolean> {
  const call = await store
    .selectFrom("gateway_usage")
    .select("id")
    .where("endpoint_name", "=", of.endpointName)
    .where("at_ms", ">=", of.fromMs - GATEWAY_RECORD_SLACK_MS)
    .where("at_ms", "<", of.toMs + GATEWAY_RECORD_SLACK_MS)
    .limit(1)
    .executeTakeFirst();
  return call !== undefined;
}

/**
 * Per decision kind, its gateway and (when asked for) evaluation decisions over the window. Counting reads every
 * decision of the window (no index finds an InferenceId prefix under every collation), so it is done only when
 * there is something to count: the gateway called the endpoint in the window, or evaluation traffic is asked for.
 * Counting a window of 1,000,000 decisions took 1.2 to 2.0 s on SQLite (docs/monitoring.md, Evaluation traffic).
 */
export async function taggedDecisions(
  store: Store,
  of: DecisionsOf,
  includeEvaluation: boolean,
): Promise<Map<string, { gateway: number; evaluation: number }>> {
  const prefixes = [
    ...((await gatewayCalled(store, of)) ? [GATEWAY_INFERENCE_PREFIX] : []),
    ...(includeEvaluation ? [EVALUATION_INFERENCE_PREFIX] : []),
  ];
  if (prefixes.length === 0) return new Map();
  const rows = await capturedBetween(store, of)
    .where((eb) => eb.or(prefixes.map((prefix) => eb("inference_id", "like", `${prefix}%`))))
    .select((eb) => [
      "kind",
      eb.fn
        .sum<number>(eb.case().when("inference_id", "like", `${GATEWAY_INFERENCE_PREFIX}%`).then(1).else(0).end())
        .as("gateway"),
      eb.fn.countAll<number>().as("tagged"),
    ])
    .groupBy("kind")
    .execute();
  return new Map(
    rows.map((row) => [
      row.kind,
      { gateway: Number(row.gateway), evaluation: Number(row.tagged) - Number(row.gateway) },
    ]),
  );
}

/** A kind's (or the window's) decisions by source: what is not tagged came from a direct caller. */
export function trafficSources(
  decisions: number,
  tagged: { gateway: number; evaluation: number } | undefined,
  includeEvaluation: boolean,
): TrafficSources {
  const gateway = tagged?.gateway ?? 0;
  const evaluation = includeEvaluation ? (tagged?.evaluation ?? 0) : 0;
  return { direct: Math.max(0, decisions - gateway - evaluation), gateway, evaluation };
}
