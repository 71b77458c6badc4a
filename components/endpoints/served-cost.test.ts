import { describe, expect, it } from "vitest";
import type { EndpointMetricsResponse, MetricSeries } from "@/contract/endpoints/metrics.ts";
import { servedCost } from "./served-cost.ts";

const at = (hour: number) => new Date(Date.UTC(2026, 11, 1, hour)).toISOString();

function series(metric: MetricSeries["metric"], values: number[]): MetricSeries {
  return { metric, stat: "Sum", unit: "Count", points: values.map((value, i) => ({ at: at(i), value })) };
}

function metrics(all: MetricSeries[], instances: EndpointMetricsResponse["instances"] = []): EndpointMetricsResponse {
  return {
    endpointName: "dc-router",
    variantName: "AllTraffic",
    from: at(0),
    to: at(4),
    periodSeconds: 3600,
    series: all,
    instances,
  };
}

describe("the cost per 1,000 decisions an endpoint served over the charted window", () => {
  it("prices the variant's instance-hours (1 instance for 2 h, then 2 for 2 h) over the Invocations counted", () => {
    const instances = [
      {
        variantName: "AllTraffic",
        points: [
          { at: at(0), value: 1 },
          { at: at(2), value: 2 },
        ],
        coldStartSeconds: null,
      },
    ];
    const cost = servedCost(
      metrics([series("Invocations", [1000, 2000, 500, 500])], instances),
      { instanceType: "ml.c6i.2xlarge", instanceCount: 2 },
      false,
      Date.parse(at(4)),
    );
    // 6 instance-hours at $0.408 = $2.448 for 4,000 decisions.
    expect(cost).toEqual({
      decisions: 4000,
      instanceHours: 6,
      instanceHourPriceUsd: 0.408,
      perThousandUsd: expect.closeTo(0.612, 12),
    });
  });

  it("counts an asynchronous endpoint's processed invocations, and the current count when no scaling is recorded", () => {
    const cost = servedCost(
      metrics([series("Invocations", []), series("InvocationsProcesssed", [300, 300])]),
      { instanceType: "ml.g6e.xlarge", instanceCount: 1 },
      true,
      Date.parse(at(4)),
    );
    expect(cost).toMatchObject({
      decisions: 600,
      instanceHours: 4,
      perThousandUsd: expect.closeTo((2.336 * 4 * 1000) / 600, 12),
    });
  });

  it("stops the instance-hours at now, not at the end of the current period", () => {
    const cost = servedCost(
      metrics([series("Invocations", [100])]),
      { instanceType: "ml.c6i.2xlarge", instanceCount: 1 },
      false,
      Date.parse(at(3)),
    );
    expect(cost.instanceHours).toBe(3);
  });

  it("has no figure for an instance type without a bundled price, or without decisions", () => {
    const idle = servedCost(
      metrics([series("Invocations", [0])]),
      { instanceType: "ml.c6i.2xlarge", instanceCount: 1 },
      false,
      Date.parse(at(4)),
    );
    expect(idle.perThousandUsd).toBeNull();
    const unpriced = servedCost(
      metrics([series("Invocations", [10])]),
      { instanceType: "ml.x99.huge", instanceCount: 1 },
      false,
      Date.parse(at(4)),
    );
    expect(unpriced.perThousandUsd).toBeNull();
  });
});
