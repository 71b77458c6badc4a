import type { DriftKind } from "@/contract/endpoints/drift.ts";
import type { DecisionKindSummary, TrafficSources } from "@/contract/endpoints/monitoring.ts";
import type { RealisedKind } from "@/contract/endpoints/realised-quality.ts";

/**
 * The rules that raise a flag on a decision kind's row (docs/monitoring.md, "Flags"). Shares are not flagged below
 * FLAG_MIN_DECISIONS: at 20 decisions a single one moves a share by 5 points, and fewer would flag noise.
 */
export const FLAG_RULES = {
  minDecisions: 20,
  /** One option chosen this often: the model may have stopped reading the input (or the traffic is one case). */
  dominantShare: 0.9,
  /** One decision in five or more falls below the threshold and goes to the fallback. */
  fallbackRate: 0.2,
} as const;

export type KindFlagId = "dominant-option" | "fallback-high" | "drift-alarm" | "below-evaluation";
export interface KindFlag {
  id: KindFlagId;
  text: string;
}

/** The drift state a row shows: the alarms' worst, or why there is none. */
export type DriftState = "ALARM" | "OK" | "INSUFFICIENT_DATA" | "no alarm set" | "no baseline";

export interface KindRow {
  kind: string;
  question: string;
  options: string[];
  decisions: number;
  sources: TrafficSources;
  /** The option chosen most and its share of the kind's decisions; null without decisions. */
  top: { option: string; share: number } | null;
  /** Share below the threshold; null without decisions. */
  fallbackRate: number | null;
  /** Accuracy over the window's labelled decisions; null without labels. */
  liveAccuracy: { accuracy: number | null; labelled: number } | null;
  drift: DriftState;
  flags: KindFlag[];
}

// Rounded down: a flag never states a share larger than the one measured.
const percent = (share: number) => `${Math.floor(share * 100 + 1e-9)}%`;

function driftState(drift: DriftKind | undefined): DriftState {
  if (!drift?.baseline) return "no baseline";
  if (drift.alarms.length === 0) return "no alarm set";
  const states = drift.alarms.map((alarm) => alarm.state);
  if (states.includes("ALARM")) return "ALARM";
  return states.includes("INSUFFICIENT_DATA") ? "INSUFFICIENT_DATA" : "OK";
}

function topOption(kind: DecisionKindSummary): KindRow["top"] {
  if (kind.decisions === 0) return null;
  const [first] = [...kind.chosen].sort((a, b) => b.decisions - a.decisions || a.option.localeCompare(b.option));
  return first ? { option: first.option, share: first.decisions / kind.decisions } : null;
}

/**
 * A decision kind's row on the Monitoring page: its figures over the window, its drift alarms' state and the flags
 * the rules in FLAG_RULES raise; `realised` (the kind's realised quality) flags accuracy that fell below what its
 * evaluation promised, by the realised-quality alarm's own rule.
 */
export function kindRow(
  kind: DecisionKindSummary,
  related: { drift?: DriftKind; realised?: RealisedKind } = {},
): KindRow {
  const top = topOption(kind);
  const fallbackRate = kind.decisions === 0 ? null : kind.belowThreshold / kind.decisions;
  const drift = driftState(related.drift);
  const enough = kind.decisions >= FLAG_RULES.minDecisions;
  const flags: KindFlag[] = [];
  if (enough && top && kind.options.length > 1 && top.share >= FLAG_RULES.dominantShare) {
    flags.push({ id: "dominant-option", text: `one option takes ${percent(top.share)}` });
  }
  if (enough && fallbackRate !== null && fallbackRate >= FLAG_RULES.fallbackRate) {
    flags.push({ id: "fallback-high", text: `${percent(fallbackRate)} fall back` });
  }
  if (drift === "ALARM") flags.push({ id: "drift-alarm", text: "drift alarm" });
  if (related.realised?.alarm.state === "ALARM") {
    flags.push({ id: "below-evaluation", text: "accuracy below the evaluation's lower bound" });
  }
  return {
    kind: kind.kind,
    question: kind.question,
    options: kind.options,
    decisions: kind.decisions,
    sources: kind.sources,
    top,
    fallbackRate,
    liveAccuracy: kind.labelled ? { accuracy: kind.labelled.accuracy, labelled: kind.labelled.labelled } : null,
    drift,
    flags,
  };
}
