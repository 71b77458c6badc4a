import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  CloudWatchClient,
  DescribeAlarmsCommand,
  GetMetricDataCommand,
  PutMetricAlarmCommand,
  PutMetricDataCommand,
} from "@aws-sdk/client-cloudwatch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ControlPlane, startControlPlane } from "../control-plane.ts";
import { localClientConfig } from "../stack.ts";
import { testStackFixture } from "../test-support/stack-fixture.ts";

/**
 * Local PutMetricData over the wire: custom metrics stored as GetMetricData and alarms read them, refused as the API
 * reference says, and put as the console's role (its policy allows only its own namespace).
 */
let dataDir: string;
let plane: ControlPlane;
let console_: CloudWatchClient;
let admin: CloudWatchClient;
/** The namespace the fixture stack's console policy allows PutMetricData in. */
const NAMESPACE = "DecisionConsole/Monitoring";
const dimensions = [
  { Name: "EndpointName", Value: "dc-metric-data" },
  { Name: "DecisionKind", Value: "0123456789abcdef" },
];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-metric-data-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0, waitForEndpoints: false });
  console_ = new CloudWatchClient(localClientConfig(plane, "console"));
  admin = new CloudWatchClient(localClientConfig(plane, "admin"));
});

afterAll(async () => {
  console_?.destroy();
  admin?.destroy();
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const FIVE_MINUTES = 300_000;

describe("local PutMetricData", () => {
  it("stores each datum so that GetMetricData and an alarm on the custom metric read it", async () => {
    const now = Date.now();
    const periodEnd = Math.floor(now / FIVE_MINUTES) * FIVE_MINUTES;
    // One datum in each of the last three complete 5-minute periods: 0.1, 0.4, 0.5.
    for (const [back, value] of [
      [3, 0.1],
      [2, 0.4],
      [1, 0.5],
    ] as const) {
      await console_.send(
        new PutMetricDataCommand({
          Namespace: NAMESPACE,
          MetricData: [
            {
              MetricName: "OptionMixDrift",
              Dimensions: dimensions,
              Timestamp: new Date(periodEnd - back * FIVE_MINUTES + 1000),
              Value: value,
              Unit: "None",
            },
          ],
        }),
      );
    }
    const data = await console_.send(
      new GetMetricDataCommand({
        StartTime: new Date(periodEnd - 3 * FIVE_MINUTES),
        EndTime: new Date(periodEnd),
        ScanBy: "TimestampAscending",
        MetricDataQueries: [
          {
            Id: "drift",
            MetricStat: {
              Metric: { Namespace: NAMESPACE, MetricName: "OptionMixDrift", Dimensions: [...dimensions].reverse() },
              Period: 300,
              Stat: "Maximum",
            },
          },
        ],
      }),
    );
    expect(data.MetricDataResults?.[0]?.Values).toEqual([0.1, 0.4, 0.5]);

    const alarm = (name: string, threshold: number) =>
      console_.send(
        new PutMetricAlarmCommand({
          AlarmName: name,
          Namespace: NAMESPACE,
          MetricName: "OptionMixDrift",
          Dimensions: dimensions,
          Statistic: "Maximum",
          Period: 300,
          EvaluationPeriods: 3,
          DatapointsToAlarm: 2,
          Threshold: threshold,
          ComparisonOperator: "GreaterThanThreshold",
        }),
      );
    await alarm("dc-metric-data-drift-high", 0.3);
    await alarm("dc-metric-data-drift-higher", 0.45);
    const { MetricAlarms = [] } = await console_.send(
      new DescribeAlarmsCommand({ AlarmNames: ["dc-metric-data-drift-high", "dc-metric-data-drift-higher"] }),
    );
    // 2 of 3 above 0.3 (0.4, 0.5): ALARM; only 1 of 3 above 0.45: OK.
    expect(MetricAlarms.map((a) => [a.AlarmName, a.StateValue])).toEqual([
      ["dc-metric-data-drift-high", "ALARM"],
      ["dc-metric-data-drift-higher", "OK"],
    ]);
  });

  it("refuses what the API reference refuses, and what local mode does not serve", async () => {
    const put = (input: Partial<ConstructorParameters<typeof PutMetricDataCommand>[0]>) =>
      admin.send(
        new PutMetricDataCommand({
          Namespace: "Custom/Checks",
          MetricData: [{ MetricName: "m", Value: 1 }],
          ...input,
        } as ConstructorParameters<typeof PutMetricDataCommand>[0]),
      );
    await expect(put({})).resolves.toBeDefined();
    await expect(put({ Namespace: "AWS/SageMaker" })).rejects.toThrow(/reserved for AWS services/);
    await expect(put({ Namespace: ":colon" })).rejects.toThrow(/regular expression pattern/);
    const many = Array.from({ length: 1001 }, (_, i) => ({ MetricName: `m${i}`, Value: i }));
    await expect(put({ MetricData: many })).rejects.toThrow(/from 1 to 1000 items/);
    await expect(put({ MetricData: [] })).rejects.toThrow(/from 1 to 1000 items/);
    await expect(put({ MetricData: [{ MetricName: "m", Value: Number.NaN }] })).rejects.toThrow();
    await expect(put({ MetricData: [{ MetricName: "m", Value: 2 ** 361 }] })).rejects.toThrow(/-2\^360 to 2\^360/);
    await expect(put({ MetricData: [{ MetricName: "m", Value: 1, StorageResolution: 5 }] })).rejects.toThrow(
      /use 1 or 60/,
    );
    const old = new Date(Date.now() - 15 * 24 * 3_600_000);
    await expect(put({ MetricData: [{ MetricName: "m", Value: 1, Timestamp: old }] })).rejects.toThrow(/two weeks/);
    const twice = [
      { Name: "a", Value: "1" },
      { Name: "a", Value: "2" },
    ];
    await expect(put({ MetricData: [{ MetricName: "m", Value: 1, Dimensions: twice }] })).rejects.toThrow(
      /more than once/,
    );
    // Statistic sets and value arrays are not served: refused, never accepted and dropped.
    await expect(
      put({ MetricData: [{ MetricName: "m", StatisticValues: { SampleCount: 1, Sum: 1, Minimum: 1, Maximum: 1 } }] }),
    ).rejects.toThrow(/StatisticValues is not served by the local control plane/);
    await expect(put({ MetricData: [{ MetricName: "m", Values: [1, 2], Counts: [1, 1] }] })).rejects.toThrow(
      /not served by the local control plane/,
    );
  });

  it("lets the console's role put metrics in its own namespace only", async () => {
    await expect(
      console_.send(new PutMetricDataCommand({ Namespace: "Other/Team", MetricData: [{ MetricName: "m", Value: 1 }] })),
    ).rejects.toMatchObject({
      name: "AccessDeniedException",
      message: expect.stringMatching(/not authorized to perform: cloudwatch:PutMetricData/),
    });
  });
});
