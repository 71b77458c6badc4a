import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ThresholdControl } from "./threshold-control.tsx";

const control = (kept: { threshold: number; byTeam: boolean } | null, value: number) =>
  renderToStaticMarkup(
    createElement(ThresholdControl, {
      kept,
      value,
      onChange: () => {},
      onKeep: () => {},
      keeping: false,
      keepError: null,
    }),
  );

describe("the playground's threshold", () => {
  it("names the threshold kept on the endpoint as the one every view reads against", () => {
    const html = control({ threshold: 0.73, byTeam: true }, 0.73);
    expect(html).toContain('value="0.73"');
    expect(html).toContain("The endpoint&#x27;s threshold is 73%: Monitoring and realised quality read");
  });

  it("says when the endpoint has the default threshold", () => {
    expect(control({ threshold: 0.5, byTeam: false }, 0.5)).toContain(
      "The endpoint&#x27;s threshold is 50% (the default)",
    );
  });

  it("offers to keep a moved slider as the endpoint's threshold, and nothing while it sits on it", () => {
    expect(control({ threshold: 0.73, byTeam: true }, 0.81)).toContain("Keep 81% as the endpoint&#x27;s threshold");
    expect(control({ threshold: 0.73, byTeam: true }, 0.73)).not.toContain("Keep");
  });
});
