import { describe, expect, it } from "vitest";
import type { DecisionOutcome } from "../evaluate/metrics/outcome.ts";
import { type GateLimits, type GateMetric, type GateSettings, gateChecks, type PairedOutcome } from "./gate-checks.ts";

const limits: GateLimits = { accuracy: 0, accuracyAtThreshold: 0, coverage: 0, ece: 0, p95Latency: 0.25, refusals: 0 };
const settings: GateSettings = { limits, alpha: 0.05, threshold: 0.7, bootstrap: { resamples: 999, seed: 1 } };

/** A two-option decision whose answer is "yes", scored with P(yes) = pYes (null: the call failed). */
function outcome(i: number, pYes: number | null, latencyMs = 100): DecisionOutcome {
  return {
    itemId: `item-${i}`,
    optionIds: ["no", "yes"],
    answer: "yes",
    probabilities: pYes === null ? null : [1 - pYes, pYes],
    latencyMs,
    errorKind: pYes === null ? "rejected" : null,
  };
}

/** 100 items, 80 answered right at 0.8 and 20 wrong at 0.55 on the baseline; `change` edits the candidate's. */
function pairs(change: (i: number, base: DecisionOutcome) => DecisionOutcome = (_, base) => base): PairedOutcome[] {
  return Array.from({ length: 100 }, (_, i) => {
    const baseline = outcome(i, i < 80 ? 0.8 : 0.45);
    return { baseline, candidate: change(i, baseline) };
  });
}

const check = (metric: GateMetric, checked: ReturnType<typeof gateChecks>) =>
  checked.find((entry) => entry.metric === metric);

describe("the gate's checks", () => {
  it("find no regression when the candidate answers exactly as the baseline", () => {
    const checked = gateChecks(pairs(), settings);
    expect(checked.map((entry) => entry.regressed)).toEqual([false, false, false, false, false, false]);
  });

  it("fail accuracy when ten items the baseline got right are wrong on the candidate (McNemar p = 1/1024)", () => {
    const checked = gateChecks(
      pairs((i, base) => (i < 10 ? outcome(i, 0.3) : base)),
      settings,
    );
    expect(check("accuracy", checked)).toMatchObject({
      baseline: 0.8,
      candidate: 0.7,
      degradation: expect.closeTo(0.1, 10),
      test: "McNemar exact",
      pValue: 1 / 1024,
      regressed: true,
    });
  });

  it("let two flipped items pass: a 2-point drop from two discordant pairs is noise (p = 0.25)", () => {
    const accuracy = check(
      "accuracy",
      gateChecks(
        pairs((i, base) => (i < 2 ? outcome(i, 0.3) : base)),
        settings,
      ),
    );
    expect(accuracy).toMatchObject({ pValue: 0.25, regressed: false });
  });

  it("let a significant drop pass when it stays within the limit", () => {
    const lenient = { ...settings, limits: { ...limits, accuracy: 0.15 } };
    const accuracy = check(
      "accuracy",
      gateChecks(
        pairs((i, base) => (i < 10 ? outcome(i, 0.3) : base)),
        lenient,
      ),
    );
    expect(accuracy).toMatchObject({ pValue: 1 / 1024, regressed: false });
  });

  it("fail ECE when the candidate is overconfident with the same choices", () => {
    // Calibrated baseline: every decision at 0.8, and 80 of 100 right.
    const calibrated = (i: number, pYes: number) => ({ ...outcome(i, pYes), answer: i < 80 ? "yes" : "no" });
    const overconfident = Array.from({ length: 100 }, (_, i) => ({
      baseline: calibrated(i, 0.8),
      candidate: calibrated(i, 0.99),
    }));
    const checked = gateChecks(overconfident, settings);
    expect(check("accuracy", checked)?.regressed).toBe(false);
    expect(check("ece", checked)).toMatchObject({
      baseline: expect.closeTo(0, 10),
      candidate: expect.closeTo(0.19, 10),
      test: "paired bootstrap",
      regressed: true,
    });
  });

  it("fail coverage when the candidate's confidence falls under the threshold", () => {
    const checked = gateChecks(
      pairs((i, base) => (i < 40 ? outcome(i, 0.6) : base)),
      settings,
    );
    expect(check("coverage", checked)).toMatchObject({
      baseline: 0.8,
      candidate: 0.4,
      test: "sign test",
      regressed: true,
    });
  });

  it("fail accuracy at threshold when the covered decisions are wrong more often", () => {
    const checked = gateChecks(
      pairs((i, base) => (i >= 80 ? outcome(i, 0.1) : base)),
      settings,
    );
    const atThreshold = check("accuracyAtThreshold", checked);
    expect(atThreshold?.baseline).toBe(1);
    expect(atThreshold?.candidate).toBe(0.8);
    expect(check("accuracy", checked)?.regressed).toBe(false);
    expect(atThreshold?.regressed).toBe(true);
  });

  it("fail p95 latency when the candidate is twice as slow, and pass it when 10 % slower under a 25 % limit", () => {
    const slow = check(
      "p95Latency",
      gateChecks(
        pairs((i, base) => ({ ...base, latencyMs: 200 + i })),
        settings,
      ),
    );
    expect(slow).toMatchObject({ baseline: 100, regressed: true });
    const bitSlower = check(
      "p95Latency",
      gateChecks(
        pairs((_, base) => ({ ...base, latencyMs: 110 })),
        settings,
      ),
    );
    expect(bitSlower).toMatchObject({ degradation: expect.closeTo(0.1, 10), regressed: false });
  });

  it("fail refusals when the candidate refuses items the baseline scored", () => {
    const refusals = check(
      "refusals",
      gateChecks(
        pairs((i, base) => (i < 8 ? outcome(i, null) : base)),
        settings,
      ),
    );
    expect(refusals).toMatchObject({ baseline: 0, candidate: 0.08, regressed: true });
  });

  it("skip the threshold checks, saying why, when there is no threshold", () => {
    const checked = gateChecks(pairs(), { ...settings, threshold: null });
    expect(check("coverage", checked)?.skipped).toMatch(/no threshold/);
    expect(check("accuracyAtThreshold", checked)?.skipped).toMatch(/no threshold/);
  });
});
