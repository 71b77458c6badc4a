import { CloudWatchClient, DescribeAlarmHistoryCommand } from "@aws-sdk/client-cloudwatch";
import { DescribeEndpointCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import { mockClient } from "aws-sdk-client-mock";
import { beforeEach, expect, it } from "vitest";
import type { UpdateResult } from "../../contract/endpoints/update.ts";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import { listAudit } from "../audit/record.ts";
import { auditAlarmRollback } from "./rollback-watch.ts";

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

describeOnStores("the audit line of a roll back SageMaker made on an alarm", (current) => {
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
    const { store } = current();
    expect(await auditAlarmRollback(clients, store, update, 1)).toEqual(["dc-canary-rollback-5xx"]);
    const [line] = await listAudit({ limit: 1 }, store);
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
    const { store } = current();
    const before = (await listAudit({ limit: 100 }, store)).length;
    expect(await auditAlarmRollback(clients, store, update, 1)).toBeNull();
    expect(await listAudit({ limit: 100 }, store)).toHaveLength(before);
  });
});
