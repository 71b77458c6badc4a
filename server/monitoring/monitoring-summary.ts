import {
  type DecisionKindSummary,
  DISTRIBUTION_BARS,
  type MonitoringInterval,
  type MonitoringWindow,
  monitoringWindows,
  TOP_PROBABILITY_BINS,
} from "../../contract/endpoints/monitoring.ts";
import type { LabelledAccuracy } from "../../contract/endpoints/review.ts";
import { accuracy } from "../evaluate/metrics/accuracy.ts";
import { calibration } from "../evaluate/metrics/calibration.ts";
import type { DecisionOutcome } from "../evaluate/metrics/outcome.ts";
import { addBins, binnedQuantileMs, emptyBins, LATENCY_BINS } from "./histograms.ts";
import type { Rollup } from "./monitoring-store.ts";

/** The window ending at `now`, aligned to its intervals: [from, to) in whole minutes. */
export function windowBounds(window: MonitoringWindow, now: Date) {
  const { seconds, intervalSeconds } = monitoringWindows[window];
  const intervalMinutes = intervalSeconds / 60;
  const toMinute = (Math.floor(now.getTime() / 60_000 / intervalMinutes) + 1) * intervalMinutes;
  const fromMinute = toMinute - seconds / 60;
  return { fromMinute, toMinute, intervalMinutes };
}

class Tally {
  decisions = 0;
  belowThreshold = 0;
  chosen = new Map<string, number>();
  topBins = emptyBins(TOP_PROBABILITY_BINS);
  latencyBins = emptyBins(LATENCY_BINS);
  latencySumMs = 0;
  latencyCount = 0;

  add(rollup: Rollup, thresholdBin: number) {
    this.decisions += rollup.decisions;
    for (let bin = 0; bin < thresholdBin; bin++) this.belowThreshold += rollup.topBins[bin] ?? 0;
    this.chosen.set(rollup.chosen, (this.chosen.get(rollup.chosen) ?? 0) + rollup.decisions);
    addBins(this.topBins, rollup.topBins);
    addBins(this.latencyBins, rollup.latencyBins);
    this.latencySumMs += rollup.latencySumMs;
    this.latencyCount += rollup.latencyCount;
  }

  latency() {
    if (this.latencyCount === 0) return null;
    return { meanMs: this.latencySumMs / this.latencyCount, p95Ms: binnedQuantileMs(this.latencyBins, 0.95) ?? 0 };
  }
}

function distribution(topBins: readonly number[]) {
  const width = TOP_PROBABILITY_BINS / DISTRIBUTION_BARS;
  return Array.from({ length: DISTRIBUTION_BARS }, (_, bar) => ({
    from: bar / DISTRIBUTION_BARS,
    to: (bar + 1) / DISTRIBUTION_BARS,
    decisions: topBins.slice(bar * width, (bar + 1) * width).reduce((sum, count) => sum + count, 0),
  }));
}

/**
 * The Monitoring view's figures from a window's rollups: per decision kind, its decisions, chosen options, the
 * distribution of the top probability and the share below `threshold`, latency, and each of these per interval.
 */
export function summarizeRollups(
  rollups: readonly Rollup[],
  kinds: ReadonlyMap<string, { question: string; options: string[] }>,
  bounds: { fromMinute: number; toMinute: number; intervalMinutes: number },
  threshold: number,
) {
  const thresholdBin = Math.round(threshold * TOP_PROBABILITY_BINS);
  const byKind = new Map<string, { total: Tally; intervals: Map<number, Tally> }>();
  const byVariant = new Map<string, number>();
  const all = new Tally();
  for (const rollup of rollups) {
    let kind = byKind.get(rollup.kind);
    if (!kind) {
      kind = { total: new Tally(), intervals: new Map() };
      byKind.set(rollup.kind, kind);
    }
    const interval = Math.floor((rollup.minute - bounds.fromMinute) / bounds.intervalMinutes);
    let tally = kind.intervals.get(interval);
    if (!tally) {
      tally = new Tally();
      kind.intervals.set(interval, tally);
    }
    tally.add(rollup, thresholdBin);
    kind.total.add(rollup, thresholdBin);
    all.add(rollup, thresholdBin);
    byVariant.set(rollup.variant, (byVariant.get(rollup.variant) ?? 0) + rollup.decisions);
  }
  const summaries: Omit<DecisionKindSummary, "sources">[] = [...byKind.entries()].map(([id, { total, intervals }]) => {
    const known = kinds.get(id);
    const options = known?.options ?? [...total.chosen.keys()].sort();
    const intervalList: MonitoringInterval[] = [...intervals.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, tally]) => ({
        at: new Date((bounds.fromMinute + index * bounds.intervalMinutes) * 60_000).toISOString(),
        decisions: tally.decisions,
        belowThreshold: tally.belowThreshold,
        chosen: Object.fromEntries(tally.chosen),
        latency: tally.latency(),
      }));
    return {
      kind: id,
      question: known?.question ?? "",
      options,
      decisions: total.decisions,
      belowThreshold: total.belowThreshold,
      chosen: options.map((option) => ({ option, decisions: total.chosen.get(option) ?? 0 })),
      topProbability: distribution(total.topBins),
      latency: total.latency(),
      intervals: intervalList,
    };
  });
  summaries.sort((a, b) => b.decisions - a.decisions || a.kind.localeCompare(b.kind));
  return {
    decisions: all.decisions,
    belowThreshold: all.belowThreshold,
    variants: [...byVariant.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([variant, decisions]) => ({ variant, decisions })),
    kinds: summaries,
  };
}

/**
 * Live accuracy over labelled production decisions: the chosen option (the highest probability) against the label
 * a person gave, and the expected calibration error over the evaluation's own reliability bins.
 */
export function labelledAccuracy(
  labels: readonly { optionIds: readonly string[]; label: string; probabilities: readonly number[] }[],
): LabelledAccuracy | null {
  if (labels.length === 0) return null;
  const outcomes: DecisionOutcome[] = labels.map((entry, index) => ({
    itemId: String(index),
    optionIds: entry.optionIds,
    answer: entry.label,
    probabilities: entry.probabilities,
  }));
  return { labelled: labels.length, accuracy: accuracy(outcomes).accuracy, ece: calibration(outcomes).ece };
}
