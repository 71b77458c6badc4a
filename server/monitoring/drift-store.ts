import type { Selectable } from "kysely";
import { DISTRIBUTION_BARS, TOP_PROBABILITY_BINS } from "../../contract/endpoints/monitoring.ts";
import { datasetItems } from "../evaluate/datasets/dataset-store.ts";
import { findRun, runResults, runTargets } from "../evaluate/runs/run-store.ts";
import { AppError } from "../http/app-error.ts";
import type { ConsoleTables } from "../store/schema.ts";
import type { Store } from "../store/store.ts";
import { decisionKind } from "./capture-record.ts";
import { emptyBins, topProbabilityBin } from "./histograms.ts";
import { decisionKinds, rollupsBetween } from "./monitoring-store.ts";

/** A decision kind's baseline: what drift is measured against (migration 57, `drift_baselines`). */
export interface DriftBaseline {
  endpointName: string;
  kind: string;
  question: string;
  options: string[];
  /** Decisions per option, in the order of `options`. */
  optionCounts: number[];
  /** Decisions per twentieth of the top probability (the Monitoring view's distribution bars). */
  topBins: number[];
  decisions: number;
  /** `capture window <from>..<to>` or `evaluation run <id>`. */
  source: string;
  setBy: string;
  setAt: string;
}

const fromRow = (row: Selectable<ConsoleTables["drift_baselines"]>): DriftBaseline => ({
  endpointName: row.endpoint_name,
  kind: row.kind,
  question: row.question,
  options: JSON.parse(row.options),
  optionCounts: JSON.parse(row.option_counts),
  topBins: JSON.parse(row.top_bins),
  decisions: row.decisions,
  source: row.source,
  setBy: row.set_by,
  setAt: row.set_at,
});

/** The histograms of a kind's decisions: per option (in `options`' order) and per twentieth of the top probability. */
export interface KindHistograms {
  decisions: number;
  optionCounts: number[];
  topBins: number[];
}

/** Twentieths from the store's hundredths (the Monitoring view's bars: bar b holds hundredths 5b to 5b + 4). */
export function twentieths(hundredths: readonly number[]): number[] {
  const width = TOP_PROBABILITY_BINS / DISTRIBUTION_BARS;
  return Array.from({ length: DISTRIBUTION_BARS }, (_, bar) =>
    hundredths.slice(bar * width, (bar + 1) * width).reduce((sum, count) => sum + count, 0),
  );
}

/** A kind's decisions in [fromMs, toMs) of every variant, from the per-minute rollups. */
export async function kindHistograms(
  store: Store,
  endpointName: string,
  kind: string,
  options: readonly string[],
  fromMs: number,
  toMs: number,
): Promise<KindHistograms> {
  const hundredths = emptyBins(TOP_PROBABILITY_BINS);
  const optionCounts = emptyBins(options.length);
  let decisions = 0;
  const fromMinute = Math.ceil(fromMs / 60_000);
  const toMinute = Math.ceil(toMs / 60_000);
  for (const rollup of await rollupsBetween(store, endpointName, fromMinute, toMinute, undefined)) {
    if (rollup.kind !== kind) continue;
    const index = options.indexOf(rollup.chosen);
    if (index < 0) continue;
    decisions += rollup.decisions;
    optionCounts[index] = (optionCounts[index] ?? 0) + rollup.decisions;
    for (let bin = 0; bin < hundredths.length; bin++)
      hundredths[bin] = (hundredths[bin] ?? 0) + (rollup.topBins[bin] ?? 0);
  }
  return { decisions, optionCounts, topBins: twentieths(hundredths) };
}

async function save(store: Store, baseline: DriftBaseline): Promise<DriftBaseline> {
  await store
    .insertInto("drift_baselines")
    .values({
      endpoint_name: baseline.endpointName,
      kind: baseline.kind,
      question: baseline.question,
      options: JSON.stringify(baseline.options),
      option_counts: JSON.stringify(baseline.optionCounts),
      top_bins: JSON.stringify(baseline.topBins),
      decisions: baseline.decisions,
      source: baseline.source,
      set_by: baseline.setBy,
      set_at: baseline.setAt,
    })
    .onConflict((oc) =>
      oc.columns(["endpoint_name", "kind"]).doUpdateSet((eb) => ({
        question: eb.ref("excluded.question"),
        options: eb.ref("excluded.options"),
        option_counts: eb.ref("excluded.option_counts"),
        top_bins: eb.ref("excluded.top_bins"),
        decisions: eb.ref("excluded.decisions"),
        source: eb.ref("excluded.source"),
        set_by: eb.ref("excluded.set_by"),
        set_at: eb.ref("excluded.set_at"),
      })),
    )
    .execute();
  return baseline;
}

async function knownKind(store: Store, endpointName: string, kind: string) {
  const known = (await decisionKinds(store, endpointName)).get(kind);
  if (!known) {
    throw new AppError("not_found", `Endpoint "${endpointName}" has captured no decisions of kind ${kind}.`);
  }
  return known;
}

const WINDOW_SOURCE_PREFIX = "capture window ";

/** When a capture-window baseline's window ends (ms); null for a baseline from an evaluation run. */
export function baselineWindowEnd(baseline: Pick<DriftBaseline, "source">): number | null {
  if (!baseline.source.startsWith(WINDOW_SOURCE_PREFIX)) return null;
  const end = Date.parse(baseline.source.slice(baseline.source.indexOf("..") + 2));
  return Number.isNaN(end) ? null : end;
}

/** The kind's baseline from the decisions the endpoint captured in [fromMs, toMs) (its rollups in the store). */
export async function setBaselineFromWindow(
  store: Store,
  endpointName: string,
  kind: string,
  fromMs: number,
  toMs: number,
  setBy: string,
  now = new Date(),
): Promise<DriftBaseline> {
  if (!(toMs > fromMs)) throw new AppError("bad_request", "A baseline window must end after it starts.");
  // The Monitoring view's window ends at the end of its current interval, which may be ahead of now.
  toMs = Math.min(toMs, now.getTime());
  if (!(toMs > fromMs)) throw new AppError("bad_request", "A baseline window must start before now.");
  const { question, options } = await knownKind(store, endpointName, kind);
  const histograms = await kindHistograms(store, endpointName, kind, options, fromMs, toMs);
  if (histograms.decisions === 0) {
    throw new AppError("bad_request", "The window holds no decisions of this kind: a baseline needs some.");
  }
  const source = `${WINDOW_SOURCE_PREFIX}${new Date(fromMs).toISOString()}..${new Date(toMs).toISOString()}`;
  return await save(store, {
    endpointName,
    kind,
    question,
    options,
    ...histograms,
    source,
    setBy,
    setAt: now.toISOString(),
  });
}

/**
 * The kind's baseline from an evaluation run's scored items with the same question and options (the kind's id is
 * the same hash of both): the results of the slot that targeted this endpoint, or of the run's first target.
 */
export async function setBaselineFromEvaluationRun(
  store: Store,
  endpointName: string,
  kind: string,
  runId: string,
  setBy: string,
  now = new Date(),
): Promise<DriftBaseline> {
  const run = await findRun(store, runId);
  if (!run) throw new AppError("not_found", `There is no evaluation run ${runId}.`);
  const { question, options } = await knownKind(store, endpointName, kind);
  const slot = Math.max(0, (await runTargets(store, runId)).indexOf(endpointName));
  const items = await datasetItems(store, run.dataset_id);
  const questions = new Map(items.map((item) => [item.position, item.decision.question]));
  const optionCounts = emptyBins(options.length);
  const hundredths = emptyBins(TOP_PROBABILITY_BINS);
  let decisions = 0;
  for (const result of await runResults(store, runId)) {
    if (result.slot !== slot || !result.optionIds || !result.probabilities) continue;
    const itemQuestion = questions.get(result.position);
    if (itemQuestion === undefined || decisionKind(itemQuestion, result.optionIds) !== kind) continue;
    const top = Math.max(...result.probabilities);
    const chosen = result.optionIds[result.probabilities.indexOf(top)] ?? "";
    const index = options.indexOf(chosen);
    if (index < 0) continue;
    decisions++;
    optionCounts[index] = (optionCounts[index] ?? 0) + 1;
    const bin = topProbabilityBin(top);
    hundredths[bin] = (hundredths[bin] ?? 0) + 1;
  }
  if (decisions === 0) {
    throw new AppError(
      "bad_request",
      `Evaluation run ${runId} scored no items of this kind (its question and options).`,
    );
  }
  const source = `evaluation run ${runId}`;
  return await save(store, {
    endpointName,
    kind,
    question,
    options,
    optionCounts,
    topBins: twentieths(hundredths),
    decisions,
    source,
    setBy,
    setAt: now.toISOString(),
  });
}

export async function endpointBaselines(store: Store, endpointName: string): Promise<DriftBaseline[]> {
  const rows = await store
    .selectFrom("drift_baselines")
    .selectAll()
    .where("endpoint_name", "=", endpointName)
    .orderBy("kind")
    .execute();
  return rows.map(fromRow);
}

export async function allBaselines(store: Store): Promise<DriftBaseline[]> {
  const rows = await store.selectFrom("drift_baselines").selectAll().orderBy("endpoint_name").orderBy("kind").execute();
  return rows.map(fromRow);
}
