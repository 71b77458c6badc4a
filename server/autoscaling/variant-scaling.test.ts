import {
  ApplicationAutoScalingClient,
  DeleteScalingPolicyCommand,
  DeregisterScalableTargetCommand,
  DescribeScalableTargetsCommand,
  DescribeScalingPoliciesCommand,
  PutScalingPolicyCommand,
  RegisterScalableTargetCommand,
} from "@aws-sdk/client-application-auto-scaling";
import {
  CloudWatchClient,
  DeleteAlarmsCommand,
  DescribeAlarmsCommand,
  PutMetricAlarmCommand,
} from "@aws-sdk/client-cloudwatch";
import { mockClient } from "aws-sdk-client-mock";
import "aws-sdk-client-mock-vitest/extend";
import { beforeEach, describe, expect, it } from "vitest";
import { autoscalingRequestSchema } from "../../contract/endpoints/autoscaling.ts";
import { configureAutoscaling, removeAutoscaling } from "./variant-scaling.ts";

const autoScaling = mockClient(ApplicationAutoScalingClient);
const cloudWatch = mockClient(CloudWatchClient);
const client = {
  autoScaling: new ApplicationAutoScalingClient({ region: "us-east-1" }),
  cloudWatch: new CloudWatchClient({ region: "us-east-1" }),
};
const target = {
  ServiceNamespace: "sagemaker",
  ResourceId: "endpoint/demo/variant/AllTraffic",
  ScalableDimension: "sagemaker:variant:DesiredInstanceCount",
} as const;

const policyBase = { ...target, CreationTime: new Date() };

describe("variant autoscaling", () => {
  beforeEach(() => {
    autoScaling.reset();
    cloudWatch.reset();
    autoScaling.on(RegisterScalableTargetCommand).resolves({});
    autoScaling.on(DescribeScalableTargetsCommand).resolves({ ScalableTargets: [] });
    autoScaling.on(PutScalingPolicyCommand).resolves({ PolicyARN: "arn:policy", Alarms: [] });
    autoScaling.on(DescribeScalingPoliciesCommand).resolves({ ScalingPolicies: [] });
    cloudWatch.on(DescribeAlarmsCommand).resolves({ MetricAlarms: [] });
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
      message: "Must be at least the minimum instance count (minCapacity).",
    });
  });

  it("removes the policies there are, the target and the wake-up alarm", async () => {
    autoScaling.on(DescribeScalableTargetsCommand).resolves({
      ScalableTargets: [{ ...target, MinCapacity: 0, MaxCapacity: 2, RoleARN: "r", CreationTime: new Date() }],
    });
    autoScaling.on(DescribeScalingPoliciesCommand).resolves({
      ScalingPolicies: [
        { PolicyName: "demo-wake-on-backlog", PolicyARN: "arn:wake", PolicyType: "StepScaling", ...policyBase },
      ],
    });
    cloudWatch
      .on(DescribeAlarmsCommand)
      .resolves({ MetricAlarms: [{ AlarmName: "demo-has-backlog-without-capacity" }] });
    autoScaling.on(DeregisterScalableTargetCommand).resolves({});
    await removeAutoscaling(client, "demo", "AllTraffic");
    expect(autoScaling).toHaveReceivedCommandExactlyOnceWith(DeleteScalingPolicyCommand, {
      ...target,
      PolicyName: "demo-wake-on-backlog",
    });
    expect(autoScaling).toHaveReceivedCommandWith(DeregisterScalableTargetCommand, target);
    expect(cloudWatch).toHaveReceivedCommandWith(DeleteAlarmsCommand, {
      AlarmNames: ["demo-has-backlog-without-capacity"],
    });
  });

  it("scales to zero: MinCapacity 0, backlog target tracking, the step policy and its HasBacklogWithoutCapacity alarm", async () => {
    autoScaling.on(PutScalingPolicyCommand, { PolicyName: "demo-wake-on-backlog" }).resolves({ PolicyARN: "arn:wake" });
    autoScaling.on(DescribeScalingPoliciesCommand).resolves({
      ScalingPolicies: [
        {
          PolicyName: "demo-invocations-per-instance",
          PolicyARN: "arn:inv",
          PolicyType: "TargetTrackingScaling",
          ...policyBase,
        },
      ],
    });
    const request = autoscalingRequestSchema.parse({ minCapacity: 0, maxCapacity: 2, scaleToZero: true });
    const saved = await configureAutoscaling(client, "demo", "AllTraffic", request);
    expect(saved).toMatchObject({ minCapacity: 0, scaleToZero: true, targetBacklogPerInstance: 5 });
    expect(autoScaling).toHaveReceivedCommandWith(RegisterScalableTargetCommand, { ...target, MinCapacity: 0 });
    expect(autoScaling).toHaveReceivedCommandWith(PutScalingPolicyCommand, {
      PolicyName: "demo-backlog-per-instance",
      PolicyType: "TargetTrackingScaling",
      TargetTrackingScalingPolicyConfiguration: {
        TargetValue: 5,
        CustomizedMetricSpecification: {
          MetricName: "ApproximateBacklogSizePerInstance",
          Namespace: "AWS/SageMaker",
          Dimensions: [{ Name: "EndpointName", Value: "demo" }],
          Statistic: "Average",
        },
        ScaleInCooldown: 300,
        ScaleOutCooldown: 60,
      },
    });
    expect(autoScaling).toHaveReceivedCommandWith(PutScalingPolicyCommand, {
      PolicyName: "demo-wake-on-backlog",
      PolicyType: "StepScaling",
      StepScalingPolicyConfiguration: expect.objectContaining({
        AdjustmentType: "ChangeInCapacity",
        StepAdjustments: [{ MetricIntervalLowerBound: 0, ScalingAdjustment: 1 }],
      }),
    });
    expect(cloudWatch).toHaveReceivedCommandWith(PutMetricAlarmCommand, {
      AlarmName: "demo-has-backlog-without-capacity",
      MetricName: "HasBacklogWithoutCapacity",
      Threshold: 1,
      ComparisonOperator: "GreaterThanOrEqualToThreshold",
      AlarmActions: ["arn:wake"],
    });
    // The invocations policy of the real-time mode goes.
    expect(autoScaling).toHaveReceivedCommandWith(DeleteScalingPolicyCommand, {
      PolicyName: "demo-invocations-per-instance",
    });
  });

  it("ties minCapacity 0 to scaleToZero, which needs scale-in", () => {
    const issues = (input: object) => autoscalingRequestSchema.safeParse(input).error?.issues.map((i) => i.message);
    expect(issues({ minCapacity: 0, maxCapacity: 2, targetInvocationsPerInstance: 10 })).toEqual([
      "Must be at least 1; 0 goes only with scale to zero (minCapacity 0 and scaleToZero together).",
    ]);
    expect(issues({ minCapacity: 0, maxCapacity: 2, scaleToZero: true, scaleInDisabled: true })).toEqual([
      "scale to zero needs scale-in",
    ]);
    expect(issues({ minCapacity: 1, maxCapacity: 2 })).toEqual([
      "targetInvocationsPerInstance is required unless scaleToZero",
    ]);
  });

  it("removes a target it registered when a later step fails, and says so", async () => {
    const registered = { ...target, MinCapacity: 2, MaxCapacity: 2, RoleARN: "r", CreationTime: new Date() };
    autoScaling
      .on(DescribeScalableTargetsCommand)
      .resolvesOnce({ ScalableTargets: [] })
      .resolves({ ScalableTargets: [registered] });
    autoScaling.on(DeregisterScalableTargetCommand).resolves({});
    autoScaling
      .on(PutScalingPolicyCommand)
      .rejects(Object.assign(new Error("not authorized"), { name: "AccessDeniedException" }));
    const request = autoscalingRequestSchema.parse({
      minCapacity: 2,
      maxCapacity: 2,
      targetInvocationsPerInstance: 60,
    });
    const failed = configureAutoscaling(client, "demo", "AllTraffic", request);
    await expect(failed).rejects.toMatchObject({
      code: "forbidden",
      message: expect.stringContaining("Nothing was changed: the scalable target was removed again."),
    });
    expect(autoScaling).toHaveReceivedCommandWith(DeregisterScalableTargetCommand, target);
  });

  it("registers the previous bounds and policy again when a later step fails", async () => {
    const previous = { ...target, MinCapacity: 1, MaxCapacity: 3, RoleARN: "r", CreationTime: new Date() };
    autoScaling.on(DescribeScalableTargetsCommand).resolves({ ScalableTargets: [previous] });
    autoScaling.on(DescribeScalingPoliciesCommand).resolves({
      ScalingPolicies: [
        {
          PolicyName: "demo-invocations-per-instance",
          PolicyARN: "arn:inv",
          PolicyType: "TargetTrackingScaling",
          TargetTrackingScalingPolicyConfiguration: {
            TargetValue: 60,
            PredefinedMetricSpecification: { PredefinedMetricType: "SageMakerVariantInvocationsPerInstance" },
          },
          ...policyBase,
        },
      ],
    });
    autoScaling
      .on(PutScalingPolicyCommand)
      .rejectsOnce(Object.assign(new Error("slow down"), { name: "ThrottlingException" }))
      .resolves({ PolicyARN: "arn:inv", Alarms: [] });
    const request = autoscalingRequestSchema.parse({
      minCapacity: 4,
      maxCapacity: 8,
      targetInvocationsPerInstance: 90,
    });
    await expect(configureAutoscaling(client, "demo", "AllTraffic", request)).rejects.toMatchObject({
      code: "rate_limited",
      message: expect.stringContaining("Nothing was changed: its previous autoscaling was registered again."),
    });
    const registrations = autoScaling.commandCalls(RegisterScalableTargetCommand).map((call) => call.args[0].input);
    expect(registrations.map((r) => [r.MinCapacity, r.MaxCapacity])).toEqual([
      [4, 8],
      [1, 3],
    ]);
    const policies = autoScaling.commandCalls(PutScalingPolicyCommand).map((call) => call.args[0].input);
    expect(policies.at(-1)?.TargetTrackingScalingPolicyConfiguration?.TargetValue).toBe(60);
    expect(autoScaling).not.toHaveReceivedCommand(DeregisterScalableTargetCommand);
  });

  it("says what is left when undoing a failed change fails too", async () => {
    autoScaling.on(DescribeScalableTargetsCommand).resolvesOnce({ ScalableTargets: [] }).rejects(new Error("gone"));
    autoScaling
      .on(PutScalingPolicyCommand)
      .rejects(Object.assign(new Error("not authorized"), { name: "AccessDeniedException" }));
    const request = autoscalingRequestSchema.parse({
      minCapacity: 1,
      maxCapacity: 2,
      targetInvocationsPerInstance: 60,
    });
    await expect(configureAutoscaling(client, "demo", "AllTraffic", request)).rejects.toMatchObject({
      code: "forbidden",
      message: expect.stringContaining('Undoing the change failed too (autoscaling of "demo": the AWS call failed'),
    });
  });

  it("changes nothing when the variant has no scalable target, which the console's policy could not touch", async () => {
    autoScaling.on(DescribeScalableTargetsCommand).resolves({ ScalableTargets: [] });
    await removeAutoscaling(client, "demo", "AllTraffic");
    expect(autoScaling).not.toHaveReceivedCommand(DeleteScalingPolicyCommand);
    expect(autoScaling).not.toHaveReceivedCommand(DeregisterScalableTargetCommand);
  });
});
