import { describe, expect, it } from "vitest";
import type { DriftKind } from "@/contract/endpoints/drift.ts";
import type { DecisionKindSummary } from "@/contract/endpoints/monitoring.ts";
import type { RealisedKind } from "@/contract/endpoints/realised-quality.ts";
import { FLAG_RULES, kindRow } from "./kind-rows.ts";

function kind(chosen: Record<string, number>, belowThreshold = 0): DecisionKindSummary {
  const decisions = Object.values(chosen).reduce((sum, count) => sum + count, 0);
  return {
    kind: "0123456789abcdef",
    question: "Which team should handle this ticket?",
    options: Object.keys(chosen),
    decisions,
    belowThreshold,
    chosen: Object.entries(chosen).map(([option, count]) => ({ option, decisions: count })),
    topProbability: [],
    latency: null,
    intervals: [],
    sources: { direct: decisions, gateway: 0, evaluation: 0 },
  };
}

const alarm = (state: "OK" | "ALARM" | "INSUFFICIENT_DATA") => ({
  name: `drift-${state}`,
  metricName: "OptionMixDistance",
  threshold: 0.2,
  state,
  stateReason: "",
});

function drift(states: ("OK" | "ALARM" | "INSUFFICIENT_DATA")[], baseline = true): DriftKind {
  return {
    kind: "0123456789abcdef",
    question: "Which team should handle this ticket?",
    options: ["billing", "tech"],
    baseline: baseline
      ? { source: "evaluation run r1", decisions: 100, setBy: "ops", setAt: "2026-12-07T10:00:00Z" }
      : null,
    current: null,
    alarms: states.map(alarm),
  };
}

const realisedAlarm = (state: "OK" | "ALARM" | "INSUFFICIENT_DATA") =>
  ({ alarm: { state, reason: "" } }) as RealisedKind;

describe("a decision kind's row on the Monitoring page", () => {
  it("gives the volume, the top option and its share, and the fallback rate", () => {
    const row = kindRow(kind({ billing: 30, tech: 70 }, 12));
    expect(row).toMatchObject({ decisions: 100, top: { option: "tech", share: 0.7 }, fallbackRate: 0.12 });
    expect(row.flags).toEqual([]);
  });

  it("flags one option taking 94% of the decisions, rounded down", () => {
    const row = kindRow(kind({ billing: 94, tech: 6 }));
    expect(row.flags).toEqual([{ id: "dominant-option", text: "one option takes 94%" }]);
    expect(kindRow(kind({ billing: 199, tech: 1 })).flags[0]?.text).toBe("one option takes 99%");
  });

  it("does not flag a share just under the rule, nor one of too few decisions to tell", () => {
    expect(kindRow(kind({ billing: 89, tech: 11 })).flags).toEqual([]);
    expect(FLAG_RULES.minDecisions).toBe(20);
    expect(kindRow(kind({ billing: 19, tech: 0 }, 19)).flags).toEqual([]);
  });

  it("does not flag a kind with a single option for being dominated by it", () => {
    expect(kindRow(kind({ yes: 50 })).flags).toEqual([]);
  });

  it("flags a fallback rate of one in five or more", () => {
    expect(kindRow(kind({ billing: 50, tech: 50 }, 20)).flags).toEqual([
      { id: "fallback-high", text: "20% fall back" },
    ]);
    expect(kindRow(kind({ billing: 50, tech: 50 }, 19)).flags).toEqual([]);
  });

  it("reads the drift state from the kind's alarms and flags an alarm", () => {
    const busy = kind({ billing: 50, tech: 50 });
    expect(kindRow(busy).drift).toBe("no baseline");
    expect(kindRow(busy, { drift: drift([]) }).drift).toBe("no alarm set");
    expect(kindRow(busy, { drift: drift(["OK", "INSUFFICIENT_DATA"]) }).drift).toBe("INSUFFICIENT_DATA");
    expect(kindRow(busy, { drift: drift(["OK", "OK"]) }).drift).toBe("OK");
    const alarmed = kindRow(busy, { drift: drift(["OK", "ALARM"]) });
    expect(alarmed.drift).toBe("ALARM");
    expect(alarmed.flags).toEqual([{ id: "drift-alarm", text: "drift alarm" }]);
  });

  it("flags live accuracy below the evaluation's lower bound by the realised-quality alarm", () => {
    const busy = kind({ billing: 50, tech: 50 });
    expect(kindRow(busy, { realised: realisedAlarm("INSUFFICIENT_DATA") }).flags).toEqual([]);
    expect(kindRow(busy, { realised: realisedAlarm("ALARM") }).flags).toEqual([
      { id: "below-evaluation", text: "accuracy below the evaluation's lower bound" },
    ]);
  });

  it("gives live accuracy from the window's labels, and none without labels", () => {
    expect(kindRow(kind({ billing: 5, tech: 5 })).liveAccuracy).toBeNull();
    const labelled = { ...kind({ billing: 5, tech: 5 }), labelled: { labelled: 8, accuracy: 0.75, ece: 0.1 } };
    expect(kindRow(labelled).liveAccuracy).toEqual({ accuracy: 0.75, labelled: 8 });
  });

  it("keeps the option set that tells apart kinds asking the same question", () => {
    const two = kindRow(kind({ billing: 5, tech: 5 }));
    const three = kindRow({ ...kind({ billing: 5, tech: 3, sales: 2 }), kind: "fedcba9876543210" });
    expect(two.question).toBe(three.question);
    expect(two.options).toEqual(["billing", "tech"]);
    expect(three.options).toEqual(["billing", "tech", "sales"]);
  });
});
