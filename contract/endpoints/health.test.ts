import { describe, expect, it } from "vitest";
import { endpointHealth } from "./health.ts";
import type { MetricSeries } from "./metrics.ts";

const counts = (metric: MetricSeries["metric"], values: number[]): MetricSeries => ({
  metric,
  stat: "Sum",
  unit: "Count",
  points: values.map((value, i) => ({ at: new Date(Date.UTC(2026, 11, 7, 10, i)).toISOString(), value })),
});

describe("an endpoint's health at a glance", () => {
  it("is alarm while an alarm is in ALARM, with the failure rate beside it", () => {
    const series = [counts("Invocations", [10, 10]), counts("Invocation5XXErrors", [10, 10])];
    const health = endpointHealth(series, [
      { name: "dc-a-rollback-5xx", state: "ALARM" },
      { name: "dc-a-rollback-latency", state: "OK" },
    ]);
    expect(health).toMatchObject({ level: "alarm", errors: 20, errorRate: 1, alarming: ["dc-a-rollback-5xx"] });
    expect(health.text).toBe("1 alarm in ALARM; 100% of 20 invocations failed in 15 min");
  });

  it("is degraded when more than 5% of invocations failed, busy answers (4XX and 5XX) included", () => {
    const series = [
      counts("Invocations", [50, 50]),
      counts("Invocation4XXErrors", [3]),
      counts("Invocation5XXErrors", [4]),
    ];
    const health = endpointHealth(series, []);
    expect(health).toMatchObject({ level: "degraded", errors: 7, errorRate: 0.07 });
    expect(health.text).toBe("7.0% of 100 invocations failed in 15 min");
  });

  it("is healthy at a low failure rate or without invocations", () => {
    expect(endpointHealth([counts("Invocations", [100]), counts("Invocation5XXErrors", [1])], []).level).toBe(
      "healthy",
    );
    expect(endpointHealth([], [])).toMatchObject({
      level: "healthy",
      errorRate: null,
      text: "no invocations in 15 min",
    });
  });

  it("is unknown until both the metrics and the alarms are read, unless an alarm is already known to be in ALARM", () => {
    expect(endpointHealth(null, []).level).toBe("unknown");
    expect(endpointHealth([], null).level).toBe("unknown");
    expect(endpointHealth(null, [{ name: "x", state: "ALARM" }]).level).toBe("alarm");
  });
});
