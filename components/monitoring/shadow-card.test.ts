import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ShadowComparison } from "@/contract/endpoints/monitoring.ts";
import { ShadowCard } from "./shadow-card.tsx";

const comparison = (calls: ShadowComparison["calls"]): ShadowComparison => ({
  production: "AllTraffic",
  shadow: "Shadow",
  pairs: 1,
  agreement: 1,
  meanProbabilityDifference: 0.01,
  unpairedProduction: 149,
  unpairedShadow: 0,
  productionLatency: null,
  shadowLatency: null,
  byKind: [],
  calls,
});
const card = (value: ShadowComparison) => renderToStaticMarkup(createElement(ShadowCard, { comparison: value }));

describe("the shadow card", () => {
  it("counts and shows the shadow's errors beside its agreement", () => {
    const html = card(comparison({ copies: 150, failed: 140 }));
    expect(html).toMatch(/data-testid="shadow-errors"[^>]*>140 of 150</);
    expect(html).toContain("Shadow failed 93.3% of its copies");
    expect(html).toContain("agreement is over the 1 decision(s) it did answer");
  });

  it("shows no warning when the shadow answered every copy", () => {
    const html = card(comparison({ copies: 150, failed: 0 }));
    expect(html).toMatch(/data-testid="shadow-errors"[^>]*>0 of 150</);
    expect(html).not.toContain("of its copies");
  });
});
