import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { UnreadableNotice } from "./review-queue.tsx";

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
