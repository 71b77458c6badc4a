import fs from "node:fs";
import path from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { browserSources, repoRoot } from "../../tests/support/browser-sources.ts";
import { CoverageChart } from "../evaluate/coverage-chart.tsx";
import { LatencyHistogram } from "../evaluate/latency-histogram.tsx";
import { ReliabilityDiagram } from "../evaluate/reliability-diagram.tsx";
import { LineChart } from "./line-chart.tsx";

const root = repoRoot;

describe("the chart frame", () => {
  it("is the only place in the browser code that draws an <svg>", () => {
    const drawing = browserSources()
      .filter((file) => fs.readFileSync(file, "utf8").includes("<svg"))
      .map((file) => path.relative(root, file));
    expect(drawing).toEqual(["components/charts/chart-frame.tsx"]);
  });

  it("colours every chart from the theme's palette, so it reads in the light and the dark scheme", () => {
    const charts = [
      "components/charts/chart-frame.tsx",
      "components/charts/line-chart.tsx",
      "components/evaluate/coverage-chart.tsx",
      "components/evaluate/latency-histogram.tsx",
      "components/evaluate/reliability-diagram.tsx",
    ];
    const fixed = charts.flatMap((file) =>
      [...fs.readFileSync(path.join(root, file), "utf8").matchAll(/#[0-9a-fA-F]{3,8}\b|rgba?\(/g)].map(
        (match) => `${file}: ${match[0]}`,
      ),
    );
    expect(fixed).toEqual([]);
  });

  it("gives every chart an announced summary and a table of the numbers it draws", () => {
    const charts = [
      createElement(LineChart, {
        title: "Invocations",
        unit: "count",
        points: [{ at: "2026-12-01T10:00:00Z", value: 4 }],
      }),
      createElement(CoverageChart, {
        curve: [{ threshold: 0.4, coverage: 1, accuracy: 0.5, covered: 10 }],
        picked: null,
        targetAccuracy: 0.9,
      }),
      createElement(LatencyHistogram, {
        bins: [{ lower: 0, upper: 10, count: 3 }],
        summary: { count: 3, p50: 4, p95: 9, p99: 9, mean: 5, max: 9 },
        title: "Latency",
      }),
      createElement(ReliabilityDiagram, {
        bins: [{ lower: 0.3, upper: 0.4, count: 7, meanConfidence: 0.35, accuracy: 0.43 }],
        ece: 0.08,
        title: "Reliability",
      }),
    ];
    for (const chart of charts) {
      const html = renderToStaticMarkup(chart);
      expect(html).toMatch(/<svg[^>]*role="img"[^>]*aria-label="[^"]+"/);
      const table = /<table[^>]*data-chart-table="[^"]+"[^>]*>([\s\S]*)<\/table>/.exec(html);
      expect(table, html).not.toBeNull();
      expect(table![1]).toContain("<td");
    }
  });
});
