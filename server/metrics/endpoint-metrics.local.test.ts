import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import { type ControlPlane, startControlPlane } from "@decision-console/local-aws";
import { MetricsStore, openLocalDatabase, testStackFixture } from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metricsQuerySchema } from "../../contract/endpoints/metrics.ts";
import { consoleClientsFor } from "../aws/local-console-clients.ts";
import { endpointMetrics } from "./endpoint-metrics.ts";

/**
 * The endpoint page's metrics against the local control plane's CloudWatch, with invocations recorded the way
 * the local SageMaker Runtime records them (the model test drives the same path through real invocations).
 */
let dataDir: string;
let plane: ControlPlane;
let cloudWatch: CloudWatchClient;
let recorded: MetricsStore;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-metrics-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0, waitForEndpoints: false });
  cloudWatch = consoleClientsFor(plane).cloudWatch;
  recorded = new MetricsStore(openLocalDatabase(dataDir));
});

afterAll(async () => {
  cloudWatch?.destroy();
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function points(result: Awaited<ReturnType<typeof endpointMetrics>>, metric: string) {
  return result.series.find((series) => series.metric === metric)?.points ?? [];
}

describe("endpoint metrics from the local control plane", () => {
  it("charts invocations made just now, with their model latency and errors", async () => {
    recorded.recordInvocation("metrics-demo", "AllTraffic", 200, 300_000);
    recorded.recordInvocation("metrics-demo", "AllTraffic", 200, 500_000);
    recorded.recordInvocation("metrics-demo", "AllTraffic", 400, 100_000);
    recorded.recordInvocation("other-endpoint", "AllTraffic", 200, 900_000);

    const result = await endpointMetrics(cloudWatch, "metrics-demo", "AllTraffic", metricsQuerySchema.parse({}));

    const total = (metric: string) => points(result, metric).reduce((sum, point) => sum + point.value, 0);
    expect(total("Invocations")).toBe(3);
    const latencies = points(result, "ModelLatency").map((point) => point.value);
    expect(latencies.length).toBeGreaterThan(0);
    for (const latency of latencies) expect(latency).toBeGreaterThanOrEqual(100_000);
    for (const latency of latencies) expect(latency).toBeLessThanOrEqual(500_000);
    expect(total("Invocation4XXErrors")).toBe(1);
    expect(total("Invocation5XXErrors")).toBe(0);
    expect(Date.parse(points(result, "Invocations").at(-1)?.at ?? "") % (300 * 1000)).toBe(0);
  });

  it("shows nothing for a variant that was not invoked", async () => {
    const result = await endpointMetrics(cloudWatch, "metrics-demo", "Canary", metricsQuerySchema.parse({}));
    expect(points(result, "Invocations")).toEqual([]);
  });
});
