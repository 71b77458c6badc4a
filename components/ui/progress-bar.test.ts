import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ProgressBar } from "./progress-bar.tsx";

const fill = (done: number, total: number) =>
  renderToStaticMarkup(createElement(ProgressBar, { label: "Evaluation progress", done, total })).match(
    /width:([\d.]+)%/,
  )?.[1];

describe("the progress bar", () => {
  it("is empty at 0%, before any request is done", () => {
    expect(fill(0, 462)).toBe("0.0");
  });

  it("fills in proportion to what is done, and stays empty while the total is unknown", () => {
    expect(fill(231, 462)).toBe("50.0");
    expect(fill(462, 462)).toBe("100.0");
    expect(fill(0, 0)).toBe("0.0");
  });

  it("tells assistive technology the figures", () => {
    const html = renderToStaticMarkup(createElement(ProgressBar, { label: "Evaluation progress", done: 3, total: 10 }));
    expect(html).toContain('role="progressbar"');
    expect(html).toContain('aria-valuenow="3"');
    expect(html).toContain('aria-valuemax="10"');
  });
});
