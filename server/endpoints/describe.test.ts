import {
  ApplicationAutoScalingClient,
  DescribeScalableTargetsCommand,
  DescribeScalingPoliciesCommand,
} from "@aws-sdk/client-application-auto-scaling";
import { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import {
  DescribeEndpointCommand,
  DescribeEndpointConfigCommand,
  DescribeModelCommand,
  ListTagsCommand,
  SageMakerClient,
} from "@aws-sdk/client-sagemaker";
import { mockClient } from "aws-sdk-client-mock";
import "aws-sdk-client-mock-vitest/extend";
import { beforeEach, describe, expect, it } from "vitest";
import {
  describedEndpoint,
  describedModel,
  describedPoolConfig,
  imageUri,
  role,
} from "../../tests/support/endpoints/fixtures.ts";
import { describeEndpoint } from "./describe.ts";

const sageMaker = mockClient(SageMakerClient);
const autoScaling = mockClient(ApplicationAutoScalingClient);
const clients = {
  sageMaker: new SageMakerClient({ region: "us-east-1" }),
  autoScaling: new ApplicationAutoScalingClient({ region: "us-east-1" }),
  cloudWatch: new CloudWatchClient({ region: "us-east-1" }),
};

describe("endpoint detail", () => {
  beforeEach(() => {
    sageMaker.reset();
    autoScaling.reset();
    sageMaker.on(DescribeEndpointConfigCommand).resolves(describedPoolConfig());
    sageMaker.on(DescribeModelCommand).resolves(describedModel({ ADAPTER_GPU: "cuda", SEMIF_TEMPERATURE: "1.3" }));
    autoScaling.on(DescribeScalableTargetsCommand).resolves({ ScalableTargets: [] });
  });

  it("shows a failed pool endpoint's reason, its pools in priority order and the settings read from its model", async () => {
    sageMaker.on(DescribeEndpointCommand).resolves(
      describedEndpoint({
        EndpointStatus: "Failed",
        FailureReason: "Insufficient capacity for every instance pool",
        ProductionVariants: undefined,
      }),
    );
    const detail = await describeEndpoint(clients, "demo");
    expect(detail.status).toBe("Failed");
    expect(detail.failureReason).toBe("Insufficient capacity for every instance pool");
    expect(detail.variants[0]?.pools).toEqual([
      { priority: 1, instanceType: "ml.g6e.xlarge", currentInstanceCount: null, isFallback: false },
      { priority: 2, instanceType: "ml.g6.2xlarge", currentInstanceCount: null, isFallback: false },
    ]);
    expect(detail.variants[0]?.provisioningTimeoutSeconds).toBe(900);
    expect(detail.model).toMatchObject({
      imageUri,
      networkIsolation: true,
      executionRoleArn: role,
      compression: "Gzip",
    });
    expect(detail.settings).toEqual({
      threads: 8,
      gpuLayers: "max",
      parallel: null,
      temperature: 1.3,
      limits: { SEMIF_MAX_IN_FLIGHT: "2" },
    });
    expect(detail.autoscaling).toBeNull();
  });

  it("reads the scalable target and the invocations-per-instance policy", async () => {
    sageMaker.on(DescribeEndpointCommand).resolves(describedEndpoint());
    autoScaling.on(DescribeScalableTargetsCommand).resolves({
      ScalableTargets: [
        {
          ServiceNamespace: "sagemaker",
          ResourceId: "endpoint/demo/variant/AllTraffic",
          ScalableDimension: "sagemaker:variant:DesiredInstanceCount",
          MinCapacity: 1,
          MaxCapacity: 4,
          RoleARN: "arn:role",
          CreationTime: new Date(),
        },
      ],
    });
    autoScaling.on(DescribeScalingPoliciesCommand).resolves({
      ScalingPolicies: [
        {
          PolicyARN: "arn:policy",
          PolicyName: "demo-invocations-per-instance",
          ServiceNamespace: "sagemaker",
          ResourceId: "endpoint/demo/variant/AllTraffic",
          ScalableDimension: "sagemaker:variant:DesiredInstanceCount",
          PolicyType: "TargetTrackingScaling",
          CreationTime: new Date(),
          TargetTrackingScalingPolicyConfiguration: {
            TargetValue: 120,
            PredefinedMetricSpecification: { PredefinedMetricType: "SageMakerVariantInvocationsPerInstance" },
            DisableScaleIn: true,
            ScaleInCooldown: 300,
            ScaleOutCooldown: 60,
          },
        },
      ],
    });
    const detail = await describeEndpoint(clients, "demo");
    expect(detail.autoscaling).toEqual({
      minCapacity: 1,
      maxCapacity: 4,
      targetInvocationsPerInstance: 120,
      scaleInDisabled: true,
      scaleInCooldownSeconds: 300,
      scaleOutCooldownSeconds: 60,
      scaleToZero: false,
      targetBacklogPerInstance: null,
    });
    expect(autoScaling).toHaveReceivedCommandWith(DescribeScalableTargetsCommand, {
      ServiceNamespace: "sagemaker",
      ResourceIds: ["endpoint/demo/variant/AllTraffic"],
      ScalableDimension: "sagemaker:variant:DesiredInstanceCount",
    });
  });

  it("reads a chat model's sha256 and the configuration an update replaced from the model's tags", async () => {
    const model = describedModel();
    sageMaker.on(DescribeModelCommand).resolves({
      ...model,
      PrimaryContainer: { ...model.PrimaryContainer, Environment: { SM_LLAMA_CPP_CTX_SIZE: "4096" } },
    });
    sageMaker.on(ListTagsCommand, { ResourceArn: model.ModelArn }).resolves({
      Tags: [
        { Key: "decision-console:model-sha256", Value: "b".repeat(64) },
        { Key: "decision-console:previous-config", Value: "demo-11111111" },
      ],
    });
    sageMaker.on(DescribeEndpointCommand).resolves(describedEndpoint());
    const detail = await describeEndpoint(clients, "demo");
    expect(detail.apiMode).toBe("chat");
    expect(detail.model.modelSha256).toBe("b".repeat(64));
    expect(detail.deployment.previousConfig).toBe("demo-11111111");
  });

  it("still reads the records an earlier console left in a model's environment", async () => {
    const model = describedModel();
    const earlier = {
      SM_LLAMA_CPP_CTX_SIZE: "4096",
      DECISION_CONSOLE_MODEL_SHA256: "d".repeat(64),
      DECISION_CONSOLE_PREVIOUS_CONFIG: "demo",
    };
    sageMaker.on(DescribeModelCommand).resolves({
      ...model,
      PrimaryContainer: { ...model.PrimaryContainer, Environment: earlier },
    });
    sageMaker.on(DescribeEndpointCommand).resolves(describedEndpoint());
    const detail = await describeEndpoint(clients, "demo");
    expect(detail.model.modelSha256).toBe("d".repeat(64));
    expect(detail.deployment.previousConfig).toBe("demo");
  });

  it("answers 404 for an endpoint SageMaker does not know", async () => {
    sageMaker
      .on(DescribeEndpointCommand)
      .rejects(Object.assign(new Error('Could not find endpoint "nope".'), { name: "ValidationException" }));
    await expect(describeEndpoint(clients, "nope")).rejects.toMatchObject({ status: 404 });
  });
});
