import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { TokenBudgetRefusals } from "@/contract/evaluate/datasets.ts";
import { TokenBudgetWarning } from "./token-budget-warning.tsx";

const entry = (endpointName: string, count: number): TokenBudgetRefusals => ({
  endpointName,
  count,
  itemIds: Array.from({ length: Math.min(count, 20) }, (_, i) => `hard-${i}`),
  evaluationId: `run-${endpointName}`,
  evaluatedAt: "2026-12-01T10:00:00.000Z",
});

describe("the batch start forms' token budget warning", () => {
  it("says before the job starts how many items the model's endpoint refused as over its budget", () => {
    const html = renderToStaticMarkup(
      createElement(TokenBudgetWarning, {
        refusals: [entry("dc-other", 3), entry("dc-jev", 46)],
        modelName: "dc-jev",
        consequence: "A transform job fails at the first record its container refuses.",
      }),
    );
    expect(html).toContain("46 item(s) of this dataset exceeded the token budget of <code>dc-jev</code>");
    expect(html).toContain('href="/evaluate/run-dc-jev"');
    expect(html).toContain("hard-0, hard-1, hard-2, hard-3, hard-4, …");
    expect(html).not.toContain("dc-other");
    expect(html).toContain("fails at the first record");
  });

  it("names every endpoint when the chosen model was not evaluated, and nothing when none refused", () => {
    const html = renderToStaticMarkup(
      createElement(TokenBudgetWarning, {
        refusals: [entry("dc-a", 2), entry("dc-b", 1)],
        modelName: "dc-c",
        consequence: "x",
      }),
    );
    expect(html).toContain("dc-a");
    expect(html).toContain("dc-b");
    expect(renderToStaticMarkup(createElement(TokenBudgetWarning, { refusals: [], consequence: "x" }))).toBe("");
  });
});
