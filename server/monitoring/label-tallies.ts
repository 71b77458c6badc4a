import { sql } from "kysely";
import { type BinSums, emptyBinSums } from "../evaluate/metrics/calibration.ts";
import type { Store } from "../store/store.ts";
import { HOUR_MS } from "./label-figures.ts";

/** One interval's labels: how many, how many right, and the same of those whose top probability reaches the threshold. */
export interface IntervalTally {
  labelled: number;
  correct: number;
  covered: number;
  coveredCorrect: number;
}

/** A decision kind's labels over a window, summed: what its realised quality is read from. */
export interface KindTallies {
  /** By interval start (ms); intervals without labels are absent. */
  intervals: ReadonlyMap<number, IntervalTally>;
  /** The reliability bins of the scored labels (CALIBRATION_BINS, in order). */
  bins: readonly BinSums[];
  scored: number;
  brierSum: number;
  /** Nearest-rank label delay, in seconds; null without labels. */
  delay: { p50Seconds: number; p90Seconds: number } | null;
}

/** Which labels a tally reads: one endpoint's production variants, decisions made in [fromMs, toMs). */
export interface TallyWindow {
  fromMs: number;
  toMs: number;
  intervalMs: number;
}

/** The nearest rank of quantile q among n (nearestRankQuantile's rule). */
const nearestRank = (q: number, n: number) => Math.min(n, Math.max(1, Math.ceil(q * n)));

/**
 * The labels of `endpointName`'s decisions in the window, made by one of `variants`, summed per decision kind in the
 * store from the columns migration 65 added: one grouped walk of the hours index, and two ranked reads of the delays
 * index per kind. No label's probabilities are read, and nothing is sorted, however many labels there are.
 */
export async function labelTallies(
  store: Store,
  endpointName: string,
  variants: readonly string[],
  window: TallyWindow,
  threshold: number,
): Promise<Map<string, KindTallies>> {
  if (window.fromMs % HOUR_MS !== 0 || window.toMs % HOUR_MS !== 0 || window.intervalMs % HOUR_MS !== 0) {
    throw new Error("label tallies are read in whole hours");
  }
  const tallies = new Map<string, KindTallies & { intervals: Map<number, IntervalTally>; bins: BinSums[] }>();
  if (variants.length === 0) return tallies;
  const ofKinds = store
    .selectFrom("ground_truth_labels")
    .where("endpoint_name", "=", endpointName)
    .where("decided_hour", ">=", window.fromMs / HOUR_MS)
    .where("decided_hour", "<", window.toMs / HOUR_MS)
    .where("variant", "in", variants);
  const groups = await ofKinds
    .select((eb) => [
      "kind",
      "decided_hour",
      "correct",
      "confidence_bin",
      eb.fn.countAll<number | string>().as("labels"),
      eb.fn.sum<number | string>(sql`case when top_probability >= ${threshold} then 1 else 0 end`).as("covered"),
      eb.fn.sum<number | string | null>("brier").as("brier"),
      eb.fn.sum<number | string | null>("top_probability").as("confidence"),
    ])
    .groupBy(["kind", "decided_hour", "correct", "confidence_bin"])
    .execute();
  for (const group of groups) {
    const kind =
      tallies.get(group.kind) ??
      tallies
        .set(group.kind, { intervals: new Map(), bins: emptyBinSums(), scored: 0, brierSum: 0, delay: null })
        .get(group.kind)!;
    const labels = Number(group.labels);
    const covered = Number(group.covered);
    const correct = Number(group.correct) === 1;
    const hourMs = Number(group.decided_hour) * HOUR_MS;
    const from = window.fromMs + Math.floor((hourMs - window.fromMs) / window.intervalMs) * window.intervalMs;
    const interval = kind.intervals.get(from) ?? { labelled: 0, correct: 0, covered: 0, coveredCorrect: 0 };
    interval.labelled += labels;
    interval.covered += covered;
    if (correct) {
      interval.correct += labels;
      interval.coveredCorrect += covered;
    }
    kind.intervals.set(from, interval);
    if (group.confidence_bin !== null) {
      const bin = kind.bins[Number(group.confidence_bin)] as BinSums;
      bin.count += labels;
      bin.confidence += Number(group.confidence ?? 0);
      if (correct) bin.correct += labels;
      kind.scored += labels;
      kind.brierSum += Number(group.brier ?? 0);
    }
  }
  for (const [kind, tally] of tallies) {
    const n = [...tally.intervals.values()].reduce((sum, interval) => sum + interval.labelled, 0);
    const delayAt = async (q: number) => {
      const row = await ofKinds
        .where("kind", "=", kind)
        .select("delay_ms")
        .orderBy("delay_ms")
        .limit(1)
        .offset(nearestRank(q, n) - 1)
        .executeTakeFirst();
      return Number(row?.delay_ms ?? 0) / 1000;
    };
    tally.delay = { p50Seconds: await delayAt(0.5), p90Seconds: await delayAt(0.9) };
  }
  return tallies;
}
