import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type CloudWatchClient, DescribeAlarmsCommand } from "@aws-sdk/client-cloudwatch";
import { type ControlPlane, startControlPlane } from "@decision-console/local-aws";
import {
  MetricClock,
  MetricDatapoints,
  MetricsStore,
  openLocalDatabase,
  testStackFixture,
} from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleClientsFor } from "../aws/local-console-clients.ts";
import { putStandardAlarms } from "./rollback-alarms.ts";

/**
 * The console's standard rollback alarms against the local control plane's CloudWatch: each of the three goes into
 * ALARM on the metrics the endpoint's kind publishes (a real-time endpoint's invocations as the local SageMaker
 * Runtime records them, an asynchronous endpoint's datapoints as the local queue publishes them).
 */
let dataDir: string;
let plane: ControlPlane;
let cloudWatch: CloudWatchClient;
/** Real time until a minute is evaluated, then held just past the end of that minute. */
const clock = new MetricClock();

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rollback-alarms-"));
  plane = await startControlPlane({
    fixture: testStackFixture(),
    dataDir,
    port: 0,
    waitForEndpoints: false,
    metricClock: clock.now,
  });
  cloudWatch = consoleClientsFor(plane).cloudWatch;
});

afterAll(async () => {
  cloudWatch?.destroy();
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const thresholds = { kind: "standard", latencyAverageMs: 100, max5xxPerMinute: 0, maxModelErrorsPerMinute: 0 } as const;

/** The minute of the metrics just recorded is complete and evaluated (held there, so no minute's end can slip between). */
async function statesAMinuteLater(names: string[], recordedAt: number) {
  clock.holdPastPeriodOf(recordedAt, 60);
  plane.alarms.evaluateAll();
  const { MetricAlarms = [] } = await cloudWatch.send(new DescribeAlarmsCommand({ AlarmNames: names }));
  return Object.fromEntries(MetricAlarms.map((alarm) => [alarm.AlarmName, alarm.StateValue]));
}

describe("the console's rollback alarms on local CloudWatch", () => {
  it("fire on a real-time endpoint's 5XX answers, slow answers and model errors", async () => {
    const names = await putStandardAlarms(cloudWatch, "dc-rt-guarded", "AllTraffic", thresholds, "real-time");
    expect(names).toEqual([
      "dc-rt-guarded-rollback-5xx",
      "dc-rt-guarded-rollback-latency-average",
      "dc-rt-guarded-rollback-model-errors",
    ]);
    // Recorded at real time, which the metric clock still is in this first test.
    const recorded = new MetricsStore(openLocalDatabase(dataDir));
    for (let i = 0; i < 3; i++) recorded.recordInvocation("dc-rt-guarded", "AllTraffic", 500, 250_000);
    const recordedAt = Date.now();
    expect(await statesAMinuteLater(names, recordedAt)).toEqual(
      Object.fromEntries(names.map((name) => [name, "ALARM"])),
    );
  });

  it("fire on an asynchronous endpoint's 5XX answers, slow answers and failed invocations", async () => {
    const names = await putStandardAlarms(cloudWatch, "dc-async-guarded", "AllTraffic", thresholds, "asynchronous");
    expect(names).toEqual([
      "dc-async-guarded-rollback-5xx",
      "dc-async-guarded-rollback-latency-average",
      "dc-async-guarded-rollback-invocation-failures",
    ]);
    const published = new MetricDatapoints(openLocalDatabase(dataDir));
    const variant = { EndpointName: "dc-async-guarded", VariantName: "AllTraffic" };
    // What the local queue publishes for a request its container answers 500 after 250 ms (at the metric clock's now).
    const at = clock.now();
    published.put("AWS/SageMaker", "ModelLatency", variant, 250_000, "Microseconds", at);
    published.put("AWS/SageMaker", "Invocation5XXErrors", variant, 1, "Count", at);
    published.put("AWS/SageMaker", "InvocationFailures", variant, 1, "Count", at);
    expect(await statesAMinuteLater(names, at)).toEqual(Object.fromEntries(names.map((name) => [name, "ALARM"])));
  });
});
