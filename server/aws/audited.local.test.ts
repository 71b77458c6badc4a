import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DescribeAlarmsCommand, PutMetricAlarmCommand } from "@aws-sdk/client-cloudwatch";
import { type ControlPlane, startControlPlane } from "@decision-console/local-aws";
import { testStackFixture } from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAudit } from "../audit/record.ts";
import { openDatabase } from "../store/database.ts";
import { sqliteStore } from "../store/sqlite-store.ts";
import type { Store } from "../store/store.ts";
import { audited } from "./audited.ts";
import type { AwsClients } from "./clients.ts";
import { consoleClientsFor } from "./local-console-clients.ts";

/** The audit line's AWS request id, through the console's own clients against the local control plane. */
let dataDir: string;
let plane: ControlPlane;
let aws: AwsClients;
let store: Store;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "audit-request-id-"));
  plane = await startControlPlane({
    fixture: testStackFixture(),
    dataDir: path.join(dataDir, "aws"),
    port: 0,
    waitForEndpoints: false,
  });
  aws = consoleClientsFor(plane);
  store = sqliteStore(openDatabase(path.join(dataDir, "console.db")));
});

afterAll(async () => {
  for (const client of Object.values(aws ?? {})) client.destroy();
  await store?.destroy();
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const alarm = {
  AlarmName: "dc-audit-demo-5xx",
  Namespace: "AWS/SageMaker",
  MetricName: "Invocation5XXErrors",
  Dimensions: [{ Name: "EndpointName", Value: "dc-audit-demo" }],
  Statistic: "Sum" as const,
  Period: 60,
  EvaluationPeriods: 1,
  Threshold: 1,
  ComparisonOperator: "GreaterThanOrEqualToThreshold" as const,
};

describe("the audit log's AWS request id", () => {
  it("is the request id AWS answered the changing call with, though the change returns a console view", async () => {
    let answered: string | undefined;
    await audited(store, { actor: "ops", action: "endpoint.alarm.put", target: "dc-audit-demo" }, async () => {
      await aws.cloudWatch.send(new DescribeAlarmsCommand({ AlarmNames: [alarm.AlarmName] }));
      const put = await aws.cloudWatch.send(new PutMetricAlarmCommand(alarm));
      answered = put.$metadata.requestId;
      await aws.cloudWatch.send(new DescribeAlarmsCommand({ AlarmNames: [alarm.AlarmName] }));
      return { name: alarm.AlarmName };
    });
    const [line] = await listAudit({ limit: 1 }, store);
    expect(answered).toMatch(/^[0-9a-f-]{36}$/);
    expect(line?.awsRequestId).toBe(answered);
  });

  it("is the failed call's own id when AWS refuses the change", async () => {
    await expect(
      audited(store, { actor: "ops", action: "endpoint.alarm.put", target: "dc-audit-demo" }, () =>
        aws.cloudWatch.send(new PutMetricAlarmCommand({ ...alarm, Period: 7 })),
      ),
    ).rejects.toThrow();
    const [line] = await listAudit({ limit: 1 }, store);
    expect(line?.result).toBe("error");
    expect(line?.awsRequestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("is empty for a change that made no AWS call", async () => {
    await audited(store, { actor: "ops", action: "dataset.delete", target: "d1" }, async () => {
      await aws.cloudWatch.send(new DescribeAlarmsCommand({ AlarmNames: [alarm.AlarmName] }));
      return null;
    });
    expect((await listAudit({ limit: 1 }, store))[0]?.awsRequestId).toBeNull();
  });
});
