import {
  ApplicationAutoScalingClient,
  DeleteScalingPolicyCommand,
  DeregisterScalableTargetCommand,
  DescribeScalableTargetsCommand,
  PutScalingPolicyCommand,
  RegisterScalableTargetCommand,
} from "@aws-sdk/client-application-auto-scaling";
import { mockClient } from "aws-sdk-client-mock";
import "aws-sdk-client-mock-vitest/extend";
import { beforeEach, describe, expect, it } from "vitest";
import { autoscalingRequestSchema } from "../../contract/endpoints/autoscaling.ts";
import { configureAutoscaling, removeAutoscaling } from "./variant-scaling.ts";

const autoScaling = mockClient(ApplicationAutoScalingClient);
const client = new ApplicationAutoScalingClient({ region: "us-east-1" });
const target = {
  ServiceNamespace: "sagemaker",
  ResourceId: "endpoint/demo/variant/AllTraffic",
  ScalableDimension: "sagemaker:variant:DesiredInstanceCount",
} as const;

describe("variant autoscaling", () => {
  beforeEach(() => {
    autoScaling.reset();
    autoScaling.on(RegisterScalableTargetCommand).resolves({});
    autoScaling.on(PutScalingPolicyCommand).resolves({ PolicyARN: "arn:policy", Alarms: [] });
  });

  it("registers the desired instance count with min/max and tracks invocations per instance", async () => {
    const request = autoscalingRequestSchema.parse({
      minCapacity: 1,
      maxCapacity: 4,
      targetInvocationsPerInstance: 120,
    });
    await configureAutoscaling(client, "demo", "AllTraffic", request);
    expect(autoScaling).toHaveReceivedCommandExactlyOnceWith(RegisterScalableTargetCommand, {
      ...target,
      MinCapacity: 1,
      MaxCapacity: 4,
      Tags: { "decision-console:managed-by": "decision-console" },
    });
    expect(autoScaling).toHaveReceivedCommandExactlyOnceWith(PutScalingPolicyCommand, {
      ...target,
      PolicyName: "demo-invocations-per-instance",
      PolicyType: "TargetTrackingScaling",
      TargetTrackingScalingPolicyConfiguration: {
        TargetValue: 120,
        PredefinedMetricSpecification: { PredefinedMetricType: "SageMakerVariantInvocationsPerInstance" },
        ScaleInCooldown: 300,
        ScaleOutCooldown: 60,
        DisableScaleIn: false,
      },
    });
  });

  it("can leave scale-in to the operator", async () => {
    const request = autoscalingRequestSchema.parse({
      minCapacity: 2,
      maxCapacity: 8,
      targetInvocationsPerInstance: 50,
      scaleInDisabled: true,
    });
    await configureAutoscaling(client, "demo", "AllTraffic", request);
    const policy = autoScaling.commandCalls(PutScalingPolicyCommand)[0]?.args[0].input;
    expect(policy?.TargetTrackingScalingPolicyConfiguration?.DisableScaleIn).toBe(true);
  });

  it("rejects a maximum below the minimum with a message on maxCapacity", () => {
    const parsed = autoscalingRequestSchema.safeParse({
      minCapacity: 4,
      maxCapacity: 2,
      targetInvocationsPerInstance: 10,
    });
    expect(parsed.error?.issues[0]).toMatchObject({
      path: ["maxCapacity"],
      message: "maxCapacity must be at least minCapacity",
    });
  });

  it("removes policy and target, and treats an absent policy as already removed", async () => {
    autoScaling.on(DescribeScalableTargetsCommand).resolves({
      ScalableTargets: [{ ...target, MinCapacity: 1, MaxCapacity: 2, RoleARN: "r", CreationTime: new Date() }],
    });
    autoScaling
      .on(DeleteScalingPolicyCommand)
      .rejects(Object.assign(new Error("No policy"), { name: "ObjectNotFoundException" }));
    autoScaling.on(DeregisterScalableTargetCommand).resolves({});
    await removeAutoscaling(client, "demo", "AllTraffic");
    expect(autoScaling).toHaveReceivedCommandWith(DeregisterScalableTargetCommand, target);
  });

  it("changes nothing when the variant has no scalable target, which the console's policy could not touch", async () => {
    autoScaling.on(DescribeScalableTargetsCommand).resolves({ ScalableTargets: [] });
    await removeAutoscaling(client, "demo", "AllTraffic");
    expect(autoScaling).not.toHaveReceivedCommand(DeleteScalingPolicyCommand);
    expect(autoScaling).not.toHaveReceivedCommand(DeregisterScalableTargetCommand);
  });
});
