import { CloudWatchClient, SetAlarmStateCommand } from "@aws-sdk/client-cloudwatch";
import { DescribeEndpointCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import { mockClient } from "aws-sdk-client-mock";
import "aws-sdk-client-mock-vitest/extend";
import { beforeEach, describe, expect, it } from "vitest";
import { describedEndpoint } from "../../tests/support/endpoints/fixtures.ts";
import { abortUpdate } from "./abort-update.ts";

const sageMaker = mockClient(SageMakerClient);
const cloudWatch = mockClient(CloudWatchClient);
const clients = {
  sageMaker: new SageMakerClient({ region: "us-east-1" }),
  cloudWatch: new CloudWatchClient({ region: "us-east-1" }),
};

/** "demo" baking a canary of "demo-1a2b3c4d", watched by the console's latency alarm. */
const baking = (alarms: string[]) =>
  describedEndpoint({
    EndpointStatus: "Updating",
    PendingDeploymentSummary: {
      EndpointConfigName: "demo-1a2b3c4d",
      StartTime: new Date("2026-12-02T06:00:00Z"),
      ProductionVariants: [{ VariantName: "AllTraffic", VariantStatus: [{ Status: "Baking", StartTime: new Date() }] }],
    },
    LastDeploymentConfig: {
      BlueGreenUpdatePolicy: {
        TrafficRoutingConfiguration: { Type: "CANARY", WaitIntervalInSeconds: 600 },
      },
      ...(alarms.length > 0
        ? { AutoRollbackConfiguration: { Alarms: alarms.map((AlarmName) => ({ AlarmName })) } }
        : {}),
    },
  });

beforeEach(() => {
  sageMaker.reset();
  cloudWatch.reset();
  cloudWatch.on(SetAlarmStateCommand).resolves({});
});

describe("abort and roll back an update", () => {
  it("trips the update's rollback alarm, which SageMaker rolls back on, naming who asked", async () => {
    sageMaker.on(DescribeEndpointCommand).resolves(baking(["demo-rollback-latency-average", "demo-rollback-5xx"]));
    await expect(abortUpdate(clients, "demo", "ops")).resolves.toEqual({
      name: "demo",
      configName: "demo-1a2b3c4d",
      alarm: "demo-rollback-latency-average",
      status: "Updating",
    });
    expect(cloudWatch).toHaveReceivedCommandTimes(SetAlarmStateCommand, 1);
    expect(cloudWatch).toHaveReceivedCommandWith(SetAlarmStateCommand, {
      AlarmName: "demo-rollback-latency-average",
      StateValue: "ALARM",
      StateReason: "Abort and roll back, asked from the console by ops",
    });
  });

  it("refuses with 409 when no update runs, or when the update watches no alarm, and sets nothing", async () => {
    sageMaker.on(DescribeEndpointCommand).resolves(describedEndpoint());
    await expect(abortUpdate(clients, "demo", "ops")).rejects.toMatchObject({
      status: 409,
      message: 'Endpoint "demo" is InService: no update is in progress to abort.',
    });
    sageMaker.on(DescribeEndpointCommand).resolves(baking([]));
    await expect(abortUpdate(clients, "demo", "ops")).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining(
        "watches no rollback alarm, and SageMaker offers no other way to stop an update",
      ),
    });
    expect(cloudWatch).not.toHaveReceivedCommand(SetAlarmStateCommand);
  });
});
