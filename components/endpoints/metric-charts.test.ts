import { describe, expect, it } from "vitest";
import type { EndpointMetricsResponse, MetricSeries } from "@/contract/endpoints/metrics.ts";
import { metricCharts, readableSeries } from "./metric-charts.ts";
import { metricRanges } from "./metric-ranges.ts";

const at = (minute: number) => new Date(Date.UTC(2026, 11, 1, 22, minute)).toISOString();

function series(metric: MetricSeries["metric"], values: number[], unit: MetricSeries["unit"] = "Count"): MetricSeries {
  return { metric, stat: "Sum", unit, points: values.map((value, i) => ({ at: at(i * 5), value })) };
}

function response(all: MetricSeries[]): EndpointMetricsResponse {
  return {
    endpointName: "dc-async",
    variantName: "AllTraffic",
    from: at(0),
    to: at(60),
    periodSeconds: 300,
    series: all,
    instances: [],
  };
}

// What CloudWatch answers for an asynchronous endpoint that processed requests: it publishes no Invocations.
const asyncAnswer = response([
  series("Invocations", []),
  series("ModelLatency", [250_000], "Microseconds"),
  series("ApproximateBacklogSize", [0, 1]),
  series("InvocationsProcesssed", [2, 1]),
]);

describe("the metrics panel's charts", () => {
  it("counts an asynchronous endpoint's invocations from InvocationsProcesssed, the metric it publishes", () => {
    const charts = metricCharts(asyncAnswer, true, Date.parse(at(60)));
    const invocations = charts.find((chart) => chart.title.startsWith("Invocations"));
    expect(invocations?.title).toBe("Invocations processed");
    expect(invocations?.points.map((point) => point.value)).toEqual([2, 1]);
    expect(charts.map((chart) => chart.key)).not.toContain("Invocations");
    expect(charts.map((chart) => chart.key)).toContain("ApproximateBacklogSize");
  });

  it("charts a real-time endpoint's Invocations and no asynchronous metric", () => {
    const charts = metricCharts(response([series("Invocations", [3]), ...asyncAnswer.series.slice(1)]), false, 0);
    expect(charts.map((chart) => chart.key)).toEqual(["Invocations", "ModelLatency"]);
  });

  it("shows latency in milliseconds, or in seconds once it reaches a second, never as an exponent", () => {
    expect(readableSeries(series("ModelLatency", [350_000], "Microseconds"))).toMatchObject({
      unit: "ms",
      points: [{ value: 350 }],
    });
    expect(readableSeries(series("ModelLatency", [1_050_000, 500_000], "Microseconds"))).toMatchObject({
      unit: "s",
      points: [{ value: 1.05 }, { value: 0.5 }],
    });
    expect(readableSeries(series("ApproximateAgeOfOldestRequest", [600], "Seconds")).unit).toBe("min");
  });

  it("offers 1 h, 3 h, 1 d and 1 w, each a window and period CloudWatch's query takes", () => {
    expect(metricRanges.map((range) => [range.label, range.minutes])).toEqual([
      ["1 h", 60],
      ["3 h", 180],
      ["1 d", 1440],
      ["1 w", 10080],
    ]);
    for (const range of metricRanges) {
      const points = (range.minutes * 60) / range.periodSeconds;
      expect(points).toBeGreaterThanOrEqual(36);
      expect(points).toBeLessThanOrEqual(168);
    }
  });
});
