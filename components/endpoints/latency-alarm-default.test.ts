import { describe, expect, it } from "vitest";
import type { EndpointMetrics } from "@/contract/endpoints/metrics.ts";
import { latencyAlarmDefault } from "./latency-alarm-default.ts";

const metrics = (microseconds: number[]): EndpointMetrics => ({
  endpointName: "dc-smol",
  variantName: "AllTraffic",
  from: "2026-12-07T09:00:00.000Z",
  to: "2026-12-07T10:00:00.000Z",
  periodSeconds: 300,
  series: [
    {
      metric: "ModelLatency",
      stat: "Average",
      unit: "Microseconds",
      points: microseconds.map((value, i) => ({
        at: `2026-12-07T09:${String(i * 5).padStart(2, "0")}:00.000Z`,
        value,
      })),
    },
  ],
});

describe("the latency alarm's default threshold", () => {
  it("sits above an endpoint whose recent average is already over the standard 2,000 ms, in ms", () => {
    expect(latencyAlarmDefault(metrics([2_400_000, 3_100_000]))).toEqual({
      recentAverageMs: 2750,
      highestMs: 3100,
      thresholdMs: 6200,
    });
  });

  it("keeps the standard 2,000 ms for a fast endpoint", () => {
    expect(latencyAlarmDefault(metrics([120_000, 180_000]))?.thresholdMs).toBe(2000);
  });

  it("is null without recent latency", () => {
    expect(latencyAlarmDefault(metrics([]))).toBeNull();
    expect(latencyAlarmDefault(undefined)).toBeNull();
  });
});
