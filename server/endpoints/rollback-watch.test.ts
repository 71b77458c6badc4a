import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CloudWatchClient, DescribeAlarmHistoryCommand } from "@aws-sdk/client-cloudwatch";
import { DescribeEndpointCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import { mockClient } from "aws-sdk-client-mock";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { UpdateResult } from "../../contract/endpoints/update.ts";
import { listAudit } from "../audit/record.ts";
import { openDatabase } from "../store/database.ts";
import { auditAlarmRollback } from "./rollback-watch.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rollback-watch-"));
const db = openDatabase(path.join(dir, "console.db"));
afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const sageMaker = mockClient(SageMakerClient);
const cloudWatch = mockClient(CloudWatchClient);
const clients = {
  sageMaker: new SageMakerClient({ region: "us-east-1" }),
  cloudWatch: new CloudWatchClient({ region: "us-east-1" }),
};
const result: UpdateResult = {
  name: "dc-canary",
  endpointConfigName: "dc-canary-9b1d2e3",
  modelName: "dc-canary-9b1d2e3",
  previousEndpointConfigName: "dc-canary",
  alarms: ["dc-canary-rollback-5xx", "dc-canary-rollback-latency-average"],
  deploymentConfig: {},
  autoscalingReRegistered: null,
  status: "Updating",
};
const update = { result, startedAt: new Date("2026-12-01T22:00:00Z"), actor: "ops" };

describe("the audit line of a roll back SageMaker made on an alarm", () => {
  beforeEach(() => {
    sageMaker.reset();
    cloudWatch.reset();
  });

  it("names the alarm that went into ALARM during the update, and the configurations from and to", async () => {
    sageMaker.on(DescribeEndpointCommand).resolves({
      EndpointName: "dc-canary",
      EndpointStatus: "InService",
      EndpointConfigName: "dc-canary",
      FailureReason: "Rolled back to endpoint configuration dc-canary",
    });
    cloudWatch
      .on(DescribeAlarmHistoryCommand, { AlarmName: "dc-canary-rollback-5xx" })
      .resolves({ AlarmHistoryItems: [{ HistorySummary: "Alarm updated from OK to ALARM" }] })
      .on(DescribeAlarmHistoryCommand, { AlarmName: "dc-canary-rollback-latency-average" })
      .resolves({ AlarmHistoryItems: [{ HistorySummary: "Alarm updated from INSUFFICIENT_DATA to OK" }] });
    expect(await auditAlarmRollback(clients, db, update, 1)).toEqual(["dc-canary-rollback-5xx"]);
    const [line] = listAudit({ limit: 1 }, db);
    expect(line).toMatchObject({
      actor: "sagemaker",
      action: "endpoint.rollback.alarm",
      target: "dc-canary",
      detail: { alarms: ["dc-canary-rollback-5xx"], from: "dc-canary-9b1d2e3", to: "dc-canary", updateBy: "ops" },
    });
    expect(cloudWatch.commandCalls(DescribeAlarmHistoryCommand)[0]?.args[0].input.StartDate).toEqual(update.startedAt);
  });

  it("writes nothing when the update went through", async () => {
    sageMaker
      .on(DescribeEndpointCommand)
      .resolves({ EndpointStatus: "InService", EndpointConfigName: result.endpointConfigName });
    const before = listAudit({ limit: 100 }, db).length;
    expect(await auditAlarmRollback(clients, db, update, 1)).toBeNull();
    expect(listAudit({ limit: 100 }, db)).toHaveLength(before);
  });
});
