import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CloudWatchClient, PutMetricAlarmCommand, SetAlarmStateCommand } from "@aws-sdk/client-cloudwatch";
import { type ControlPlane, localClientConfig, startControlPlane } from "@decision-console/local-aws";
import { testStackFixture } from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleClientsFor } from "../aws/local-console-clients.ts";
import { endpointAlarms } from "./endpoint-alarms.ts";
import { putStandardAlarms } from "./rollback-alarms.ts";

/**
 * The endpoint page's alarms against the local control plane, through the console's own clients and role: the
 * rollback guards an update put, the scale-to-zero wake-up, and nothing of another endpoint whose name starts alike.
 */
let dataDir: string;
let plane: ControlPlane;
let cloudWatch: CloudWatchClient;
let clients: ReturnType<typeof consoleClientsFor>;

const ENDPOINT = "dc-alarmed";

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "endpoint-alarms-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0, waitForEndpoints: false });
  clients = consoleClientsFor(plane);
  cloudWatch = clients.cloudWatch;
  const thresholds = {
    kind: "standard",
    latencyAverageMs: 100,
    max5xxPerMinute: 0,
    maxModelErrorsPerMinute: 0,
  } as const;
  await putStandardAlarms(cloudWatch, ENDPOINT, "AllTraffic", thresholds, "real-time");
  await putStandardAlarms(cloudWatch, `${ENDPOINT}-2`, "AllTraffic", thresholds, "real-time");
  await cloudWatch.send(
    new PutMetricAlarmCommand({
      AlarmName: `${ENDPOINT}-has-backlog-without-capacity`,
      Namespace: "AWS/SageMaker",
      MetricName: "HasBacklogWithoutCapacity",
      Dimensions: [{ Name: "EndpointName", Value: ENDPOINT }],
      Statistic: "Average",
      Period: 60,
      EvaluationPeriods: 2,
      Threshold: 1,
      ComparisonOperator: "GreaterThanOrEqualToThreshold",
    }),
  );
  // What a canary's 5XX errors do to the guard; an administrator stands in for the metric.
  const admin = new CloudWatchClient(localClientConfig(plane, "admin"));
  await admin.send(
    new SetAlarmStateCommand({
      AlarmName: `${ENDPOINT}-rollback-5xx`,
      StateValue: "ALARM",
      StateReason: "5XX in the canary",
    }),
  );
  admin.destroy();
});

afterAll(async () => {
  cloudWatch?.destroy();
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the endpoint's alarms", () => {
  it("lists every alarm the console created for it, with its kind, condition, state and state changes", async () => {
    const { alarms } = await endpointAlarms(clients, ENDPOINT);
    expect(alarms.map((alarm) => [alarm.name, alarm.kind]).sort()).toEqual([
      [`${ENDPOINT}-has-backlog-without-capacity`, "scale-to-zero-wake-up"],
      [`${ENDPOINT}-rollback-5xx`, "rollback-guard"],
      [`${ENDPOINT}-rollback-latency-average`, "rollback-guard"],
      [`${ENDPOINT}-rollback-model-errors`, "rollback-guard"],
    ]);
    const guard = alarms.find((alarm) => alarm.name === `${ENDPOINT}-rollback-5xx`);
    expect(guard).toMatchObject({ state: "ALARM", stateReason: "5XX in the canary" });
    expect(guard?.condition).toBe("Sum of Invocation5XXErrors > 0 over 1 × 60 s");
    expect(guard?.history[0]?.summary).toMatch(/^Alarm updated from \w+ to ALARM$/);
  });
});
