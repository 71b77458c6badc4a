import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PromotionStateNote } from "./promotion-state.tsx";

describe("a shadow promotion's background outcome", () => {
  it("is shown with its reason on the page that promoted when it was given up", () => {
    const html = renderToStaticMarkup(
      createElement(PromotionStateNote, {
        state: {
          waiting: null,
          lastFailure: {
            at: "2026-12-07T10:00:00.000Z",
            requestedBy: "alice",
            reason: "the update was refused: CanarySize must be <= 50% of 1",
          },
        },
      }),
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain("The last shadow promotion was given up");
    expect(html).toContain("CanarySize must be &lt;= 50% of 1");
  });

  it("says a waiting promotion is waiting, with its last error", () => {
    const html = renderToStaticMarkup(
      createElement(PromotionStateNote, {
        state: {
          waiting: {
            requestedBy: "alice",
            requestedAt: "2026-12-07T10:00:00.000Z",
            attempts: 2,
            lastError: "Rate exceeded",
          },
          lastFailure: null,
        },
      }),
    );
    expect(html).toContain("waiting for the endpoint to be InService");
    expect(html).toContain("Rate exceeded");
  });
});
