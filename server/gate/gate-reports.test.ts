import { describe, expect, it } from "vitest";
import type { GateCheck } from "./gate-checks.ts";
import type { GateVerdict } from "./gate-verdict.ts";
import { junitReport } from "./junit-report.ts";
import { markdownSummary } from "./markdown-summary.ts";

const passed: GateCheck = {
  metric: "accuracy",
  label: "Accuracy",
  baseline: 0.8,
  candidate: 0.79,
  degradation: 0.01,
  limit: 0,
  test: "McNemar exact",
  pValue: 0.5,
  regressed: false,
  skipped: null,
};
const regressed: GateCheck = {
  metric: "ece",
  label: "ECE",
  baseline: 0.02,
  candidate: 0.31,
  degradation: 0.29,
  limit: 0.02,
  test: "paired bootstrap",
  pValue: 0.0005,
  regressed: true,
  skipped: null,
};
const skipped: GateCheck = {
  ...passed,
  metric: "coverage",
  label: "Coverage at threshold",
  baseline: null,
  candidate: null,
  degradation: null,
  pValue: null,
  test: "sign test",
  skipped: "no threshold <given>",
};

const verdict = (checks: GateCheck[]): GateVerdict => ({
  dataset: "tickets & refunds.jsonl",
  items: 231,
  candidate: "router-candidate",
  baseline: "router-prod",
  alpha: 0.05,
  threshold: 0.7,
  checks,
  seconds: 12.5,
});

describe("the gate's JUnit XML", () => {
  it("has one test case per check, counting failures and skips", () => {
    const xml = junitReport(verdict([passed, regressed, skipped]));
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    expect(xml).toContain(
      '<testsuite name="decision-console gate: router-candidate vs router-prod" tests="3" failures="1" errors="0" skipped="1" time="12.500">',
    );
    expect(xml.match(/<testcase /g)).toHaveLength(3);
  });

  it("reports a regression as a failure with the figures, the limit and the p-value", () => {
    const xml = junitReport(verdict([regressed]));
    expect(xml).toContain(
      '<failure message="ECE: 0.0200 -&gt; 0.3100 (rise +0.2900, limit +0.0200, paired bootstrap p = 0.0005): REGRESSION" type="regression">',
    );
  });

  it("escapes what it did not write itself", () => {
    const xml = junitReport(verdict([skipped]));
    expect(xml).toContain('<property name="dataset" value="tickets &amp; refunds.jsonl"/>');
    expect(xml).toContain('<skipped message="no threshold &lt;given&gt;"/>');
  });
});

describe("the gate's Markdown summary", () => {
  it("says it passed and tabulates every check", () => {
    const markdown = markdownSummary(verdict([passed, skipped]));
    expect(markdown).toContain("**Passed**: no regression beyond the limits (paired tests, p < 0.05).");
    expect(markdown).toContain("| Accuracy | 80.0 % | 79.0 % | +1.0 pt | 0.0 pt | McNemar exact | 0.5000 | ✅ pass |");
    expect(markdown).toContain("⏭ skipped: no threshold <given>");
  });

  it("names the checks that regressed", () => {
    const markdown = markdownSummary(verdict([passed, regressed]));
    expect(markdown).toContain("**Failed**: ECE regressed beyond the limit (p < 0.05).");
    expect(markdown).toContain(
      "| ECE | 0.0200 | 0.3100 | +0.2900 | +0.0200 | paired bootstrap | 0.0005 | ❌ regression |",
    );
  });
});
