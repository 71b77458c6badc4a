import {
  ApplicationAutoScalingClient,
  DeleteScalingPolicyCommand,
  DeregisterScalableTargetCommand,
} from "@aws-sdk/client-application-auto-scaling";
import { CloudWatchClient, DeleteAlarmsCommand, DescribeAlarmsCommand } from "@aws-sdk/client-cloudwatch";
import {
  DeleteEndpointCommand,
  DeleteEndpointConfigCommand,
  DeleteModelCommand,
  DescribeEndpointCommand,
  DescribeEndpointConfigCommand,
  DescribeModelCommand,
  SageMakerClient,
  UpdateEndpointWeightsAndCapacitiesCommand,
} from "@aws-sdk/client-sagemaker";
import { mockClient } from "aws-sdk-client-mock";
import "aws-sdk-client-mock-vitest/extend";
import { beforeEach, describe, expect, it } from "vitest";
import { describedCpuConfig, describedEndpoint, describedModel } from "../../tests/support/endpoints/fixtures.ts";
import { deleteEndpoint, updateInstanceCount } from "./manage.ts";

const sageMaker = mockClient(SageMakerClient);
const autoScaling = mockClient(ApplicationAutoScalingClient);
const cloudWatch = mockClient(CloudWatchClient);
const clients = {
  cloudWatch: new CloudWatchClient({ region: "us-east-1" }),
  sageMaker: new SageMakerClient({ region: "us-east-1" }),
  autoScaling: new ApplicationAutoScalingClient({ region: "us-east-1" }),
};

describe("delete and scale", () => {
  beforeEach(() => {
    sageMaker.reset();
    autoScaling.reset();
    cloudWatch.reset();
    cloudWatch.on(DescribeAlarmsCommand).resolves({ MetricAlarms: [] });
    sageMaker
      .on(DescribeEndpointConfigCommand)
      .resolves({ ...describedCpuConfig(), EndpointConfigName: "demo-config-7" });
    sageMaker.on(DescribeModelCommand).resolves(describedModel());
    sageMaker.on(DeleteEndpointCommand).resolves({});
    sageMaker.on(DeleteEndpointConfigCommand).resolves({});
    sageMaker.on(DeleteModelCommand).resolves({});
    autoScaling
      .on(DeleteScalingPolicyCommand)
      .rejects(Object.assign(new Error("No scaling policy"), { name: "ObjectNotFoundException" }));
    autoScaling
      .on(DeregisterScalableTargetCommand)
      .rejects(Object.assign(new Error("No target"), { name: "ObjectNotFoundException" }));
  });

  it.each(["Creating", "Updating"] as const)("refuses to delete while %s and deletes nothing", async (status) => {
    sageMaker.on(DescribeEndpointCommand).resolves(describedEndpoint({ EndpointStatus: status }));
    await expect(deleteEndpoint(clients, "demo")).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining(`is ${status}`),
    });
    expect(sageMaker).not.toHaveReceivedCommand(DeleteEndpointCommand);
    expect(sageMaker).not.toHaveReceivedCommand(DeleteEndpointConfigCommand);
    expect(sageMaker).not.toHaveReceivedCommand(DeleteModelCommand);
  });

  it("deletes exactly the endpoint, the config it names and the model that config names", async () => {
    sageMaker.on(DescribeEndpointCommand).resolves(describedEndpoint({ EndpointConfigName: "demo-config-7" }));
    const deleted = await deleteEndpoint(clients, "demo");
    expect(deleted).toEqual({ endpoint: "demo", endpointConfig: "demo-config-7", model: "demo", alarms: [] });
    expect(cloudWatch).not.toHaveReceivedCommand(DeleteAlarmsCommand);
    expect(sageMaker).toHaveReceivedCommandExactlyOnceWith(DeleteEndpointCommand, { EndpointName: "demo" });
    expect(sageMaker).toHaveReceivedCommandExactlyOnceWith(DeleteEndpointConfigCommand, {
      EndpointConfigName: "demo-config-7",
    });
    expect(sageMaker).toHaveReceivedCommandExactlyOnceWith(DeleteModelCommand, { ModelName: "demo" });
  });

  it("deletes the console's alarms of the endpoint that exist, by exact name, before the endpoint", async () => {
    sageMaker.on(DescribeEndpointCommand).resolves(describedEndpoint({ EndpointConfigName: "demo-config-7" }));
    cloudWatch.on(DescribeAlarmsCommand).resolves({
      MetricAlarms: [
        { AlarmName: "demo-rollback-5xx" },
        { AlarmName: "demo-rollback-invocation-failures" },
        { AlarmName: "demo-has-backlog-without-capacity" },
      ],
    });
    cloudWatch.on(DeleteAlarmsCommand).resolves({});
    const deleted = await deleteEndpoint(clients, "demo");
    const asked = cloudWatch.commandCalls(DescribeAlarmsCommand).at(-1)?.args[0].input;
    expect(asked?.AlarmNamePrefix).toBeUndefined();
    expect(asked?.AlarmNames).toEqual(
      expect.arrayContaining(["demo-rollback-latency-average", "demo-rollback-model-errors"]),
    );
    const alarms = ["demo-rollback-5xx", "demo-rollback-invocation-failures", "demo-has-backlog-without-capacity"];
    expect(cloudWatch).toHaveReceivedCommandWith(DeleteAlarmsCommand, { AlarmNames: alarms });
    expect(deleted.alarms).toEqual(alarms);
  });

  it("keeps the endpoint when its alarms cannot be deleted", async () => {
    sageMaker.on(DescribeEndpointCommand).resolves(describedEndpoint());
    cloudWatch.on(DescribeAlarmsCommand).resolves({ MetricAlarms: [{ AlarmName: "demo-rollback-5xx" }] });
    cloudWatch.on(DeleteAlarmsCommand).rejects(Object.assign(new Error("Rate exceeded"), { name: "Throttling" }));
    await expect(deleteEndpoint(clients, "demo")).rejects.toMatchObject({ message: expect.stringContaining("Rate") });
    expect(sageMaker).not.toHaveReceivedCommand(DeleteEndpointCommand);
  });

  it("deletes a Failed endpoint", async () => {
    sageMaker.on(DescribeEndpointCommand).resolves(describedEndpoint({ EndpointStatus: "Failed" }));
    await expect(deleteEndpoint(clients, "demo")).resolves.toMatchObject({ endpoint: "demo" });
  });

  it("sets the variant's desired instance count", async () => {
    sageMaker.on(DescribeEndpointCommand).resolves(describedEndpoint());
    sageMaker.on(UpdateEndpointWeightsAndCapacitiesCommand).resolves({ EndpointArn: "arn" });
    await updateInstanceCount(clients.sageMaker, "demo", 3);
    expect(sageMaker).toHaveReceivedCommandExactlyOnceWith(UpdateEndpointWeightsAndCapacitiesCommand, {
      EndpointName: "demo",
      DesiredWeightsAndCapacities: [{ VariantName: "AllTraffic", DesiredInstanceCount: 3 }],
    });
  });

  it("refuses to scale an endpoint that is not InService", async () => {
    sageMaker.on(DescribeEndpointCommand).resolves(describedEndpoint({ EndpointStatus: "Failed" }));
    await expect(updateInstanceCount(clients.sageMaker, "demo", 2)).rejects.toMatchObject({ status: 409 });
    expect(sageMaker).not.toHaveReceivedCommand(UpdateEndpointWeightsAndCapacitiesCommand);
  });
});
