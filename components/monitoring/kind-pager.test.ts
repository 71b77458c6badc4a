import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { KindPager } from "./kind-pager.tsx";

const render = (kindPage: Parameters<typeof KindPager>[0]["kindPage"], shown: number) =>
  renderToStaticMarkup(createElement(KindPager, { kindPage, shown, onPage: () => {} }));

describe("the Monitoring view's pages of decision kinds", () => {
  it("says which kinds of how many are shown, and offers the next page", () => {
    const html = render({ page: 2, perPage: 10, matching: 2007, total: 2007, search: null }, 10);
    expect(html).toContain("Decision kinds 11–20 of 2007, most decisions first.");
    expect(html).toContain("Page 2 of 201");
    expect(html).toMatch(/<button[^>]*>Next<\/button>/);
  });

  it("says how many kinds a search matched, of all of them", () => {
    const html = render({ page: 1, perPage: 10, matching: 3, total: 2007, search: "refund" }, 3);
    expect(html).toContain("Decision kinds 1–3 of 3 whose question contains “refund” (of 2007)");
    expect(html).not.toContain("Page 1 of");
  });

  it("says when a search matched nothing", () => {
    const html = render({ page: 1, perPage: 10, matching: 0, total: 5, search: "nothing" }, 0);
    expect(html).toContain("No decision kinds to show of 0 whose question contains “nothing” (of 5)");
  });
});
