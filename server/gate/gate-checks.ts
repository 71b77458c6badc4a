import { nearestRankQuantile } from "@decision-console/adapter/contract";
import { calibration } from "../evaluate/metrics/calibration.ts";
import { confidence, type DecisionOutcome, isCorrect, isScored } from "../evaluate/metrics/outcome.ts";
import { type BootstrapOptions, type Discordant, mcnemarExact, pairedBootstrapP } from "./paired-tests.ts";

/** The most each figure may get worse before the gate fails, when the paired test also says it is not noise. */
export interface GateLimits {
  /** Accuracy drop, as a share (0.02 = two points). */
  accuracy: number;
  /** Drop of the accuracy of the decisions at or above the threshold, as a share. */
  accuracyAtThreshold: number;
  /** Drop of the share of decisions at or above the threshold. */
  coverage: number;
  /** Rise of the expected calibration error. */
  ece: number;
  /** Rise of the p95 client-side latency, relative (0.25 = 25 % slower). */
  p95Latency: number;
  /** Rise of the share of items that returned no probabilities (refused or failed). */
  refusals: number;
}

export interface GateSettings {
  limits: GateLimits;
  /** A regression fails the gate only when its one-sided p-value is below this. */
  alpha: number;
  /** Where a decision counts as covered; null skips the two threshold checks. */
  threshold: number | null;
  bootstrap: BootstrapOptions;
}

export type GateMetric = keyof GateLimits;

export interface GateCheck {
  metric: GateMetric;
  label: string;
  /** The figure on each side (null where it cannot be measured: no item at the threshold, no latency). */
  baseline: number | null;
  candidate: number | null;
  /** How much worse the candidate is, in the limit's unit (positive = worse). */
  degradation: number | null;
  limit: number;
  test: "McNemar exact" | "sign test" | "paired bootstrap";
  pValue: number | null;
  regressed: boolean;
  /** Why a check was not made. */
  skipped: string | null;
}

/** One item scored by both sides. */
export interface PairedOutcome {
  baseline: DecisionOutcome;
  candidate: DecisionOutcome;
}

const LABELS: Record<GateMetric, string> = {
  accuracy: "Accuracy",
  accuracyAtThreshold: "Accuracy at threshold",
  coverage: "Coverage at threshold",
  ece: "ECE",
  p95Latency: "p95 latency",
  refusals: "Refusals",
};

const share = (count: number, total: number) => (total === 0 ? 0 : count / total);

function discordant(pairs: readonly PairedOutcome[], good: (outcome: DecisionOutcome) => boolean): Discordant {
  let worse = 0;
  let better = 0;
  for (const { baseline, candidate } of pairs) {
    const before = good(baseline);
    const after = good(candidate);
    if (before && !after) worse += 1;
    if (!before && after) better += 1;
  }
  return { worse, better };
}

function indicatorCheck(
  metric: GateMetric,
  pairs: readonly PairedOutcome[],
  settings: GateSettings,
  test: "McNemar exact" | "sign test",
  /** The "good" state of an item; for refusals the figure reported is the share of bad items. */
  good: (outcome: DecisionOutcome) => boolean,
  reportBad = false,
): GateCheck {
  const n = pairs.length;
  const count = (side: "baseline" | "candidate") => pairs.filter((pair) => good(pair[side])).length;
  const figure = (side: "baseline" | "candidate") => share(reportBad ? n - count(side) : count(side), n);
  const counts = discordant(pairs, good);
  const degradation = share(counts.worse - counts.better, n);
  const pValue = mcnemarExact(counts).oneSided;
  const limit = settings.limits[metric];
  return {
    metric,
    label: LABELS[metric],
    baseline: figure("baseline"),
    candidate: figure("candidate"),
    degradation,
    limit,
    test,
    pValue,
    regressed: degradation > limit && pValue < settings.alpha,
    skipped: null,
  };
}

function bootstrapCheck(
  metric: GateMetric,
  pairs: readonly PairedOutcome[],
  settings: GateSettings,
  figureOf: (outcomes: readonly DecisionOutcome[]) => number | null,
  /** Candidate minus baseline, signed so that positive is worse. */
  worseBy: (baseline: number, candidate: number) => number,
): GateCheck {
  const side = (indices: readonly number[], which: "baseline" | "candidate") =>
    figureOf(indices.map((i) => (pairs[i] as PairedOutcome)[which]));
  const all = pairs.map((_, i) => i);
  const baseline = side(all, "baseline");
  const candidate = side(all, "candidate");
  const limit = settings.limits[metric];
  const check = { metric, label: LABELS[metric], baseline, candidate, limit, test: "paired bootstrap" as const };
  if (baseline === null || candidate === null) {
    const reason = `not measurable on the ${baseline === null ? "baseline" : "candidate"}`;
    return { ...check, degradation: null, pValue: null, regressed: false, skipped: reason };
  }
  const degradation = worseBy(baseline, candidate);
  const pValue = pairedBootstrapP(
    pairs.length,
    (indices) => {
      const before = side(indices, "baseline");
      const after = side(indices, "candidate");
      return before === null || after === null ? null : worseBy(before, after);
    },
    settings.bootstrap,
  );
  return { ...check, degradation, pValue, regressed: degradation > limit && pValue < settings.alpha, skipped: null };
}

const covered = (threshold: number) => (outcome: DecisionOutcome) =>
  isScored(outcome) && confidence(outcome) >= threshold;

function accuracyAt(threshold: number) {
  return (outcomes: readonly DecisionOutcome[]) => {
    const kept = outcomes.filter(covered(threshold));
    return kept.length === 0 ? null : kept.filter(isCorrect).length / kept.length;
  };
}

function p95Of(outcomes: readonly DecisionOutcome[]): number | null {
  const latencies = outcomes
    .filter((outcome) => !outcome.errorKind && typeof outcome.latencyMs === "number")
    .map((outcome) => outcome.latencyMs as number)
    .sort((a, b) => a - b);
  return nearestRankQuantile(latencies, 0.95);
}

const eceOf = (outcomes: readonly DecisionOutcome[]) => calibration(outcomes).ece;

function skippedCheck(metric: GateMetric, settings: GateSettings, reason: string): GateCheck {
  return {
    metric,
    label: LABELS[metric],
    baseline: null,
    candidate: null,
    degradation: null,
    limit: settings.limits[metric],
    test: metric === "coverage" ? "sign test" : "paired bootstrap",
    pValue: null,
    regressed: false,
    skipped: reason,
  };
}

/**
 * Every check of the gate on items both sides scored. Binary per-item outcomes (right or wrong, covered or not,
 * refused or not) use the exact test on their discordant pairs; figures of a whole sample (accuracy among the
 * covered items, ECE, p95) have no per-item form, so they use the paired bootstrap.
 */
export function gateChecks(pairs: readonly PairedOutcome[], settings: GateSettings): GateCheck[] {
  const { threshold } = settings;
  const noThreshold = "no threshold: the baseline met no target accuracy and none was given (--threshold)";
  return [
    indicatorCheck("accuracy", pairs, settings, "McNemar exact", isCorrect),
    threshold === null
      ? skippedCheck("accuracyAtThreshold", settings, noThreshold)
      : bootstrapCheck("accuracyAtThreshold", pairs, settings, accuracyAt(threshold), (b, c) => b - c),
    threshold === null
      ? skippedCheck("coverage", settings, noThreshold)
      : indicatorCheck("coverage", pairs, settings, "sign test", covered(threshold)),
    bootstrapCheck("ece", pairs, settings, eceOf, (b, c) => c - b),
    bootstrapCheck("p95Latency", pairs, settings, p95Of, (b, c) => (b === 0 ? 0 : c / b - 1)),
    indicatorCheck("refusals", pairs, settings, "sign test", isScored, true),
  ];
}
