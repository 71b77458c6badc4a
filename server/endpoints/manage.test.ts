import {
  ApplicationAutoScalingClient,
  DeleteScalingPolicyCommand,
  DeregisterScalableTargetCommand,
} from "@aws-sdk/client-application-auto-scaling";
import { CloudWatchClient, DescribeAlarmsCommand } from "@aws-sdk/client-cloudwatch";
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
    expect(deleted).toEqual({ endpoint: "demo", endpointConfig: "demo-config-7", model: "demo" });
    expect(sageMaker).toHaveReceivedCommandExactlyOnceWith(DeleteEndpointCommand, { EndpointName: "demo" });
    expect(sageMaker).toHaveReceivedCommandExactlyOnceWith(DeleteEndpointConfigCommand, {
      EndpointConfigName: "demo-config-7",
    });
    expect(sageMaker).toHaveReceivedCommandExactlyOnceWith(DeleteModelCommand, { ModelName: "demo" });
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
