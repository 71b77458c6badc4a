import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ReliabilityBin, TemperatureFit } from "@/contract/evaluate/metrics.ts";
import { accuracyInterval, thresholdAdvice } from "@/contract/evaluate/threshold.ts";
import { CoverageChart } from "./coverage-chart.tsx";
import { LatencyHistogram } from "./latency-histogram.tsx";
import { ReliabilityDiagram } from "./reliability-diagram.tsx";
import { TemperatureCard } from "./temperature-card.tsx";

const fitAt = (temperature: number, atLimit: TemperatureFit["atLimit"]): TemperatureFit => ({
  temperature,
  logLossBefore: 1.2,
  logLossAfter: 0.9,
  eceBefore: 0.23,
  eceAfter: 0.01,
  items: 231,
  atLimit,
  heldOut: { items: 231, logLossBefore: 1.2, logLossAfter: 0.95, eceBefore: 0.23, eceAfter: 0.03, improves: true },
});

describe("the evaluation page's charts on a real model's uneven numbers", () => {
  it("warn when the fitted temperature is the search's limit, not a measured optimum", () => {
    const html = renderToStaticMarkup(createElement(TemperatureCard, { fit: fitAt(20, "highest"), endpointName: "e" }));
    expect(html).toContain('data-testid="temperature-limit"');
    expect(html).toContain("highest temperature it tries (20)");
    const lowest = renderToStaticMarkup(
      createElement(TemperatureCard, { fit: fitAt(0.05, "lowest"), endpointName: "e" }),
    );
    expect(lowest).toContain("lowest temperature it tries (0.05)");
    const measured = renderToStaticMarkup(createElement(TemperatureCard, { fit: fitAt(2.4, null), endpointName: "e" }));
    expect(measured).not.toContain("temperature-limit");
  });

  it("label each reliability bar with its item count", () => {
    const bins: ReliabilityBin[] = Array.from({ length: 10 }, (_, i) => ({
      lower: i / 10,
      upper: (i + 1) / 10,
      count: i === 2 ? 150 : i === 9 ? 3 : 0,
      accuracy: i === 2 ? 0.31 : i === 9 ? 1 : null,
      meanConfidence: i === 2 ? 0.25 : i === 9 ? 0.95 : null,
    }));
    const html = renderToStaticMarkup(createElement(ReliabilityDiagram, { bins, ece: 0.1, title: "Calibration" }));
    expect([...html.matchAll(/data-bin-count="(\d+)"/g)].map((match) => Number(match[1]))).toEqual([150, 3]);
    // The 3-item bar is drawn fainter than the 150-item one, so it does not read as the diagram's main evidence.
    const opacities = [...html.matchAll(/fill-opacity="([\d.]+)"/g)].map((match) => Number(match[1]));
    expect(opacities).toEqual([0.85, 0.33]);
    // Each bar carries its accuracy's 95% Wilson interval, drawn to the y axis's scale.
    const spans = [...html.matchAll(/data-interval="([\d.]+)-([\d.]+)"/g)].map((m) => Number(m[1]) - Number(m[2]));
    const width = (correct: number, total: number) =>
      accuracyInterval(correct, total).upper - accuracyInterval(correct, total).lower;
    expect(spans).toHaveLength(2);
    expect(spans[1]! / spans[0]!).toBeCloseTo(width(3, 3) / width(Math.round(0.31 * 150), 150), 1);
    expect(html).toContain("3 items, 95% interval 44%–100%");
  });

  it("shade the coverage curve's 95% band, wide where few items decide a point", () => {
    const curve = [
      { threshold: 0.2, coverage: 1, accuracy: 0.31, covered: 223 },
      { threshold: 0.7, coverage: 5 / 223, accuracy: 1, covered: 5 },
    ];
    const html = renderToStaticMarkup(createElement(CoverageChart, { curve, picked: curve[1]!, targetAccuracy: 0.9 }));
    const band = /data-testid="coverage-band" d="([^"]+)"/.exec(html)?.[1] ?? "";
    const ys = [...band.matchAll(/[ML][\d.]+,([\d.]+)/g)].map((m) => Number(m[1]));
    // Upper bounds forward (223 items, then 5), lower bounds back (5 items, then 223).
    expect(ys).toHaveLength(4);
    const [upper223, upper5, lower5, lower223] = ys as [number, number, number, number];
    const width = (correct: number, total: number) =>
      accuracyInterval(correct, total).upper - accuracyInterval(correct, total).lower;
    expect((lower5 - upper5) / (lower223 - upper223)).toBeCloseTo(width(5, 5) / width(Math.round(0.31 * 223), 223), 1);
    expect(html).toContain("56.6%–100.0%");
  });

  it("put the p50 and p95 labels above the bars, where the tallest bar cannot cover them", () => {
    const bins = Array.from({ length: 20 }, (_, i) => ({
      lower: i * 10,
      upper: (i + 1) * 10,
      count: i === 0 ? 40 : 1,
    }));
    const summary = { count: 59, p50: 5, p95: 150, p99: 190, mean: 20, max: 200 };
    const html = renderToStaticMarkup(createElement(LatencyHistogram, { bins, summary, title: "Latency" }));
    const tallest = Number(/<rect[^>]* y="([\d.]+)"/.exec(html)?.[1]);
    const labels = [...html.matchAll(/<text[^>]*y="([\d.]+)"[^>]*>p(50|95) [^<]+<\/text>/g)].map((match) =>
      Number(match[1]),
    );
    expect(labels).toHaveLength(2);
    for (const y of labels) expect(y).toBeLessThan(tallest - 2);
  });

  it("keep every axis label inside the drawing, with the unit the numbers are in", () => {
    // The 231-item run on SmolLM2 ended its latency axis at "1.852 s": centred on the last tick, its unit was cut off.
    const bins = Array.from({ length: 12 }, (_, i) => ({ lower: i * 154.3, upper: (i + 1) * 154.3, count: i + 1 }));
    const summary = { count: 78, p50: 795.1, p95: 1471, p99: 1852, mean: 820, max: 1852 };
    const html = renderToStaticMarkup(createElement(LatencyHistogram, { bins, summary, title: "Latency" }));
    const width = Number(/viewBox="0 0 (\d+) /.exec(html)?.[1]);
    const texts = [
      ...html.matchAll(/<text x="([\d.]+)" y="[\d.]+" text-anchor="(start|middle|end)"([^>]*)>([^<]+)<\/text>/g),
    ];
    const xTicks = texts
      .filter(([, , , rest]) => !rest!.includes("transform"))
      .map(([, x, anchor, , text]) => ({ x: Number(x), anchor, text: text! }));
    // Round ticks, not the run's own maximum ("1.852 s") and its half.
    expect(xTicks.map((tick) => tick.text)).toEqual(expect.arrayContaining(["0", "500 ms", "1 s", "1.5 s"]));
    for (const tick of xTicks) {
      const extent = tick.text.length * 9 * 0.6;
      const [from, to] =
        tick.anchor === "end"
          ? [tick.x - extent, tick.x]
          : tick.anchor === "start"
            ? [tick.x, tick.x + extent]
            : [tick.x - extent / 2, tick.x + extent / 2];
      expect(from, tick.text).toBeGreaterThanOrEqual(0);
      expect(to, tick.text).toBeLessThanOrEqual(width);
    }
    expect(html).toContain(">latency per request</text>");
    expect(html).toContain(">requests</text>");
    const coverage = renderToStaticMarkup(
      createElement(CoverageChart, {
        curve: [{ threshold: 0.3, coverage: 1, accuracy: 0.31, covered: 185 }],
        picked: null,
        targetAccuracy: 0.9,
      }),
    );
    expect(coverage).toContain(">accuracy of answered</text>");
    expect(coverage).toContain(">target 90%</text>");
  });

  it("say how many items a threshold stands on, and warn when that is too few to meet the target", () => {
    // What the real model's run gave: the only point reaching 90% was one item of 185 at 100%.
    const curve = [
      { threshold: 0.2, coverage: 1, accuracy: 0.31, covered: 185 },
      { threshold: 0.6, coverage: 20 / 185, accuracy: 0.5, covered: 20 },
      { threshold: 0.71, coverage: 1 / 185, accuracy: 1, covered: 1 },
    ];
    const advice = thresholdAdvice(curve, 0.9);
    expect(advice).toContain("at least 0.710: 1 of 185 items (0.5%) at 100.0% accuracy (95% interval 20.7%–100.0%)");
    expect(advice).toContain("label more decisions before relying on this threshold");
    const many = [{ threshold: 0.5, coverage: 1, accuracy: 0.97, covered: 400 }];
    expect(thresholdAdvice(many, 0.9)).not.toContain("label more decisions");
    expect(thresholdAdvice(curve, 1.01)).toBe("No threshold reaches 101.0% accuracy on this run.");
    // Wilson's interval for 0 of 10 and 10 of 10 (Newcombe 1998, table I): 0–27.8% and 72.2–100%.
    expect(accuracyInterval(0, 10).upper).toBeCloseTo(0.2775, 3);
    expect(accuracyInterval(10, 10).lower).toBeCloseTo(0.7225, 3);
  });
});
