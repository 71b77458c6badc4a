import { DISTRIBUTION_BARS, TOP_PROBABILITY_BINS } from "../../contract/endpoints/monitoring.ts";
import { datasetItems } from "../evaluate/datasets/dataset-store.ts";
import { findRun, runResults, runTargets } from "../evaluate/runs/run-store.ts";
import { AppError } from "../http/app-error.ts";
import type { Db } from "../store/database.ts";
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

type BaselineRow = {
  endpoint_name: string;
  kind: string;
  question: string;
  options: string;
  option_counts: string;
  top_bins: string;
  decisions: number;
  source: string;
  set_by: string;
  set_at: string;
};

const fromRow = (row: BaselineRow): DriftBaseline => ({
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
export function kindHistograms(
  db: Db,
  endpointName: string,
  kind: string,
  options: readonly string[],
  fromMs: number,
  toMs: number,
): KindHistograms {
  const hundredths = emptyBins(TOP_PROBABILITY_BINS);
  const optionCounts = emptyBins(options.length);
  let decisions = 0;
  const fromMinute = Math.ceil(fromMs / 60_000);
  const toMinute = Math.ceil(toMs / 60_000);
  for (const rollup of rollupsBetween(db, endpointName, fromMinute, toMinute, undefined)) {
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

function save(db: Db, baseline: DriftBaseline): DriftBaseline {
  db.prepare(
    `INSERT INTO drift_baselines (endpoint_name, kind, question, options, option_counts, top_bins, decisions, source,
       set_by, set_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (endpoint_name, kind) DO UPDATE SET question = excluded.question, options = excluded.options,
       option_counts = excluded.option_counts, top_bins = excluded.top_bins, decisions = excluded.decisions,
       source = excluded.source, set_by = excluded.set_by, set_at = excluded.set_at`,
  ).run(
    baseline.endpointName,
    baseline.kind,
    baseline.question,
    JSON.stringify(baseline.options),
    JSON.stringify(baseline.optionCounts),
    JSON.stringify(baseline.topBins),
    baseline.decisions,
    baseline.source,
    baseline.setBy,
    baseline.setAt,
  );
  return baseline;
}

function knownKind(db: Db, endpointName: string, kind: string) {
  const known = decisionKinds(db, endpointName).get(kind);
  if (!known) {
    throw new AppError("not_found", `Endpoint "${endpointName}" has captured no decisions of kind ${kind}.`);
  }
  return known;
}

/** The kind's baseline from the decisions the endpoint captured in [fromMs, toMs) (its rollups in the store). */
export function setBaselineFromWindow(
  db: Db,
  endpointName: string,
  kind: string,
  fromMs: number,
  toMs: number,
  setBy: string,
  now = new Date(),
): DriftBaseline {
  if (!(toMs > fromMs)) throw new AppError("bad_request", "A baseline window must end after it starts.");
  // The Monitoring view's window ends at the end of its current interval, which may be ahead of now.
  toMs = Math.min(toMs, now.getTime());
  if (!(toMs > fromMs)) throw new AppError("bad_request", "A baseline window must start before now.");
  const { question, options } = knownKind(db, endpointName, kind);
  const histograms = kindHistograms(db, endpointName, kind, options, fromMs, toMs);
  if (histograms.decisions === 0) {
    throw new AppError("bad_request", "The window holds no decisions of this kind: a baseline needs some.");
  }
  const source = `capture window ${new Date(fromMs).toISOString()}..${new Date(toMs).toISOString()}`;
  return save(db, { endpointName, kind, question, options, ...histograms, source, setBy, setAt: now.toISOString() });
}

/**
 * The kind's baseline from an evaluation run's scored items with the same question and options (the kind's id is
 * the same hash of both): the results of the slot that targeted this endpoint, or of the run's first target.
 */
export function setBaselineFromEvaluationRun(
  db: Db,
  endpointName: string,
  kind: string,
  runId: string,
  setBy: string,
  now = new Date(),
): DriftBaseline {
  const run = findRun(db, runId);
  if (!run) throw new AppError("not_found", `There is no evaluation run ${runId}.`);
  const { question, options } = knownKind(db, endpointName, kind);
  const slot = Math.max(0, runTargets(db, runId).indexOf(endpointName));
  const questions = new Map(datasetItems(db, run.dataset_id).map((item) => [item.position, item.decision.question]));
  const optionCounts = emptyBins(options.length);
  const hundredths = emptyBins(TOP_PROBABILITY_BINS);
  let decisions = 0;
  for (const result of runResults(db, runId)) {
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
  return save(db, {
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

export function endpointBaselines(db: Db, endpointName: string): DriftBaseline[] {
  const rows = db
    .prepare("SELECT * FROM drift_baselines WHERE endpoint_name = ? ORDER BY kind")
    .all(endpointName) as BaselineRow[];
  return rows.map(fromRow);
}

export function allBaselines(db: Db): DriftBaseline[] {
  const rows = db.prepare("SELECT * FROM drift_baselines ORDER BY endpoint_name, kind").all() as BaselineRow[];
  return rows.map(fromRow);
}
