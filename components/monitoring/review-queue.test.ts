import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DecisionCard, UnreadableNotice } from "./review-queue.tsx";

const notice = (count: number) => renderToStaticMarkup(createElement(UnreadableNotice, { count }));

describe("the review queue's notice of decisions left out", () => {
  it("says how many decisions were left out and why", () => {
    expect(notice(2)).toContain("2 decisions were left out: their capture object is missing or no longer holds them");
    expect(notice(1)).toContain("1 decision was left out: its capture object is missing or no longer holds it");
  });

  it("is not shown when every decision was read", () => {
    expect(notice(0)).toBe("");
  });
});

describe("the decision to label", () => {
  it("keeps each option's percentage on one line beside a long description (390 px screens)", () => {
    const item = {
      objectKey: "k",
      line: 0,
      item: 0,
      variant: "AllTraffic",
      at: "2026-12-07T10:00:00.000Z",
      kind: "kind",
      decisionId: "d0",
      question: "Route?",
      options: [
        { id: "billing", description: "Questions about invoices, refunds, charges and payment methods of any kind" },
        { id: "tech", description: "" },
      ],
      probabilities: [0.873, 0.127],
      chosen: "billing",
      topProbability: 0.873,
      state: "{}",
      stateTruncated: false,
      shadowChosen: null,
    };
    const html = renderToStaticMarkup(
      createElement(DecisionCard, { item, busy: false, onLabel: () => {}, onSkip: () => {} }),
    );
    const percentages = [...html.matchAll(/<span class="([^"]*)">(\d+(?:\.\d+)?%)<\/span>/g)];
    expect(percentages.map((match) => match[2])).toHaveLength(2);
    for (const match of percentages)
      expect(match[1]?.split(" ")).toEqual(expect.arrayContaining(["shrink-0", "whitespace-nowrap"]));
  });
});
