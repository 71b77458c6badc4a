import fs from "node:fs";
import path from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { browserSources, repoRoot } from "../../tests/support/browser-sources.ts";
import { type Column, DataTable } from "./data-table.tsx";
import { nextSort, sortArrow, sortRows } from "./table-sort.ts";

const root = repoRoot;

type Run = { id: string; startedAt: string };
const runs: Run[] = [
  { id: "middle", startedAt: "2026-12-01T10:00:00Z" },
  { id: "newest", startedAt: "2026-12-01T11:00:00Z" },
  { id: "oldest", startedAt: "2026-12-01T09:00:00Z" },
];
const started: Column<Run> = {
  key: "started",
  header: "Started",
  cell: (run) => run.startedAt,
  sortValue: (run) => Date.parse(run.startedAt),
};

describe("one sort convention", () => {
  it("draws ▼ for descending (newest or largest first) and ▲ for ascending, ↕ when not sorted", () => {
    expect(sortArrow("descending")).toBe("▼");
    expect(sortArrow("ascending")).toBe("▲");
    expect(sortArrow(undefined)).toBe("↕");
  });

  it("puts the newest first when a time column sorts descending", () => {
    expect(sortRows(runs, started.sortValue!, "descending").map((run) => run.id)).toEqual([
      "newest",
      "middle",
      "oldest",
    ]);
    expect(sortRows(runs, started.sortValue!, "ascending").map((run) => run.id)).toEqual([
      "oldest",
      "middle",
      "newest",
    ]);
  });

  it("starts a newly chosen column descending and flips a sorted one", () => {
    expect(nextSort(undefined, "started")).toEqual({ key: "started", direction: "descending" });
    expect(nextSort({ key: "started", direction: "descending" }, "started")).toEqual({
      key: "started",
      direction: "ascending",
    });
    expect(nextSort({ key: "started", direction: "ascending" }, "name")).toEqual({
      key: "name",
      direction: "descending",
    });
  });

  it("marks the sorted header with aria-sort and its arrow, and scrolls inside its own box", () => {
    const html = renderToStaticMarkup(
      createElement(DataTable<Run>, {
        caption: "Runs",
        columns: [started],
        rows: runs,
        rowKey: (run) => run.id,
        initialSort: { key: "started", direction: "descending" },
      }),
    );
    expect(html).toMatch(/<th[^>]*aria-sort="descending"[^>]*>[\s\S]*?▼[\s\S]*?<\/th>/);
    expect(html.indexOf("11:00")).toBeLessThan(html.indexOf("09:00"));
    expect(html).toMatch(/<section tabindex="0" aria-labelledby="([^"]+)" class="[^"]*overflow-x-auto[^"]*"><table/);
    const captionId = /aria-labelledby="([^"]+)"/.exec(html)?.[1];
    expect(html).toContain(`<caption id="${captionId}"`);
  });
});

describe("one table component", () => {
  it("draws every table in the browser code", () => {
    const drawing = browserSources()
      .filter((file) => /<(table|thead|tbody)\b/.test(fs.readFileSync(file, "utf8")))
      .map((file) => path.relative(root, file));
    expect(drawing).toEqual(["components/ui/table.tsx"]);
  });

  it("puts header cells straight into TableHead, which draws their row itself", () => {
    // A second <tr> inside TableHead's own row is invalid HTML the browser re-parents, misaligning the columns.
    const rowInRow = browserSources()
      .filter((file) => /<TableHead\b[^>]*>\s*<tr\b/.test(fs.readFileSync(file, "utf8")))
      .map((file) => path.relative(root, file));
    expect(rowInRow).toEqual([]);
  });

  it("sorts every time column by the time itself, so descending means newest first", () => {
    // A negated time (`-Date.parse(…)`) under "ascending" showed ▲ over a newest-first list.
    const negated = browserSources()
      .filter((file) => /sortValue: \([^)]*\) => -/.test(fs.readFileSync(file, "utf8")))
      .map((file) => path.relative(root, file));
    expect(negated).toEqual([]);
  });
});
