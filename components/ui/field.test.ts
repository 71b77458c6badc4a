import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SelectField, TextAreaField, TextField } from "./field.tsx";

/** The class attribute of the page's one input, select or textarea. */
function controlClasses(html: string): string[] {
  return /<(?:input|select|textarea)[^>]*class="([^"]*)"/.exec(html)?.[1]?.split(" ") ?? [];
}

describe("a form field's control", () => {
  it("keeps its own border when a caller adds a class such as font-mono", () => {
    const props = { label: "Image", className: "font-mono" };
    for (const field of [
      createElement(TextField, props),
      createElement(SelectField, props),
      createElement(TextAreaField, props),
    ]) {
      const classes = controlClasses(renderToStaticMarkup(field));
      expect(classes).toContain("font-mono");
      expect(classes).toContain("border");
      expect(classes).toContain("border-slate-400");
    }
  });

  it("has its own classes, once, without a caller's", () => {
    const classes = controlClasses(renderToStaticMarkup(createElement(TextField, { label: "Name" })));
    expect(classes).toContain("border");
    expect(classes).not.toContain("undefined");
    expect(new Set(classes).size).toBe(classes.length);
  });
});
