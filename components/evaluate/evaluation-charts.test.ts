import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ReliabilityBin, TemperatureFit } from "@/contract/evaluate/metrics.ts";
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
  });

  it("put the p50 and p95 labels above the bars, where the tallest bar cannot cover them", () => {
    const bins = Array.from({ length: 20 }, (_, i) => ({
      lower: i * 10,
      upper: (i + 1) * 10,
      count: i === 0 ? 40 : 1,
    }));
    const summary = { count: 59, p50: 5, p95: 150, p99: 190, mean: 20, max: 200 };
    const html = renderToStaticMarkup(createElement(LatencyHistogram, { bins, summary, title: "Latency" }));
    const tallest = Number(/<rect x="[\d.]+" y="([\d.]+)"/.exec(html)?.[1]);
    const labels = [...html.matchAll(/<text[^>]*y="([\d.]+)"[^>]*>p(50|95)<\/text>/g)].map((match) => Number(match[1]));
    expect(labels).toHaveLength(2);
    for (const y of labels) expect(y).toBeLessThan(tallest - 2);
  });
});
