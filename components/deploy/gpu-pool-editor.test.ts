import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { GpuPoolEditor } from "./gpu-pool-editor.tsx";

const render = (error?: string) =>
  renderToStaticMarkup(
    createElement(GpuPoolEditor, {
      pools: ["ml.g5.2xlarge", "ml.g5.2xlarge"],
      choices: ["ml.g5.2xlarge", "ml.g6.2xlarge"],
      error,
      onChange: () => {},
    }),
  );

describe("the GPU pool editor", () => {
  it("shows the schema's problem with the pool and ties each instance type to it", () => {
    const html = render("instance types must be unique");
    const errorId = html.match(/<p id="([^"]+)"[^>]*>instance types must be unique<\/p>/)?.[1];
    expect(errorId).toBeTruthy();
    const selects = html.match(/<select[^>]*>/g) ?? [];
    expect(selects).toHaveLength(2);
    for (const select of selects) {
      expect(select).toContain('aria-invalid="true"');
      expect(select).toContain(`aria-describedby="${errorId}"`);
    }
  });

  it("marks nothing when the pool is fine", () => {
    const html = render();
    expect(html).not.toContain("aria-invalid");
    expect(html).not.toContain("aria-describedby");
  });
});
