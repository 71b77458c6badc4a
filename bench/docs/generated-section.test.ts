import { describe, expect, it } from "vitest";
import { measuredOn, replaceGeneratedSection } from "./generated-section.ts";

describe("generated doc sections", () => {
  const document = "# Title\n\nprose\n<!-- figures:begin -->\nold table\n<!-- figures:end -->\nafter\n";

  it("replaces only what lies between the markers and keeps them", () => {
    expect(replaceGeneratedSection(document, "figures", "| new |")).toBe(
      "# Title\n\nprose\n<!-- figures:begin -->\n| new |\n<!-- figures:end -->\nafter\n",
    );
  });

  it("refuses a document without the block", () => {
    expect(() => replaceGeneratedSection("# Title\n", "figures", "x")).toThrow(
      "the document has no <!-- figures:begin --> ... <!-- figures:end --> block",
    );
  });

  it("dates the figures and names the command", () => {
    expect(measuredOn(new Date("2026-12-01T10:00:00Z"), "2 CPUs", "npm run perf:budget")).toBe(
      "Measured 2026-12-01 by `npm run perf:budget` on 2 CPUs.",
    );
  });
});
