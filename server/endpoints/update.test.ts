import {
  ApplicationAutoScalingClient,
  DeleteScalingPolicyCommand,
  DeregisterScalableTargetCommand,
  DescribeScalableTargetsCommand,
  DescribeScalingPoliciesCommand,
  PutScalingPolicyCommand,
  RegisterScalableTargetCommand,
} from "@aws-sdk/client-application-auto-scaling";
import { CloudWatchClient, DescribeAlarmsCommand, PutMetricAlarmCommand } from "@aws-sdk/client-cloudwatch";
import {
  CreateEndpointConfigCommand,
  CreateModelCommand,
  DeleteEndpointConfigCommand,
  DeleteModelCommand,
  DescribeEndpointCommand,
  DescribeEndpointConfigCommand,
  DescribeModelCommand,
  ListTagsCommand,
  SageMakerClient,
  UpdateEndpointCommand,
} from "@aws-sdk/client-sagemaker";
import { mockClient } from "aws-sdk-client-mock";
import "aws-sdk-client-mock-vitest/extend";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type UpdateRequestInput, updateRequestSchema } from "../../contract/endpoints/update.ts";
import {
  describedCpuConfig,
  describedEndpoint,
  describedModel,
  imageUri,
} from "../../tests/support/endpoints/fixtures.ts";
import { openTestStore, type TestStore } from "../../tests/support/store/test-stores.ts";
import { updateEndpoint } from "./update.ts";

const sageMaker = mockClient(SageMakerClient);
const consoleVariable = (name: string) => name.startsWith("DECISION_CONSOLE_");
const cloudWatch = mockClient(CloudWatchClient);
const autoScaling = mockClient(ApplicationAutoScalingClient);
let testStore: TestStore;
const clients = {
  sageMaker: new SageMakerClient({ region: "us-east-1" }),
  cloudWatch: new CloudWatchClient({ region: "us-east-1" }),
  autoScaling: new ApplicationAutoScalingClient({ region: "us-east-1" }),
  get store() {
    return testStore.store;
  },
};
beforeAll(async () => {
  testStore = await openTestStore("sqlite");
});
afterAll(async () => {
  await testStore.close();
});
const request = (overrides: Partial<UpdateRequestInput> = {}) =>
  updateRequestSchema.parse({
    change: { temperature: 1.4 },
    strategy: { kind: "canary", size: { unit: "percent", value: 25 }, waitSeconds: 300 },
    alarms: { kind: "standard", latencyAverageMs: 1500 },
    ...overrides,
  });

/** A roll back to the endpoint's first configuration, "demo". */
const backToDemo = () =>
  request({
    change: {},
    rollBackTo: "demo",
    strategy: { kind: "all-at-once", waitSeconds: 0 },
    alarms: { kind: "none" },
  });

/** Fresh mocks of an InService single-variant CPU endpoint "demo" that accepts updates. */
function serveTheDemoEndpoint() {
  sageMaker.reset();
  cloudWatch.reset();
  autoScaling.reset();
  // No scale-to-zero wake-up alarm exists (removing autoscaling looks for one).
  cloudWatch.on(DescribeAlarmsCommand).resolves({ MetricAlarms: [] });
  sageMaker.on(DescribeEndpointCommand).resolves(describedEndpoint());
  sageMaker.on(DescribeEndpointConfigCommand).resolves(describedCpuConfig());
  sageMaker.on(DescribeModelCommand).resolves(describedModel());
  sageMaker.on(UpdateEndpointCommand).resolves({ EndpointArn: "arn" });
}

/**
 * Serving demo-33333333, which replaced demo-22222222, which replaced demo-11111111, which replaced demo: the endpoint
 * and its configurations, each config's one variant serving the model of the config's name. Returns each config's
 * predecessor, which the caller records where the console of that test reads it.
 */
function serveConfigHistory(): Record<string, string | undefined> {
  sageMaker.on(DescribeEndpointCommand).resolves(describedEndpoint({ EndpointConfigName: "demo-33333333" }));
  sageMaker.on(DescribeEndpointConfigCommand).callsFake(({ EndpointConfigName }) => ({
    ...describedCpuConfig(),
    EndpointConfigName,
    ProductionVariants: [{ ...describedCpuConfig().ProductionVariants![0]!, ModelName: EndpointConfigName }],
  }));
  return { "demo-33333333": "demo-22222222", "demo-22222222": "demo-11111111", "demo-11111111": "demo" };
}

describe("updating an endpoint in place", () => {
  beforeEach(() => {
    serveTheDemoEndpoint();
  });

  it("creates the changed model and config under derived names, the standard alarms, then a canary UpdateEndpoint", async () => {
    const result = await updateEndpoint(clients, "demo", request());
    expect(result.endpointConfigName).toMatch(/^demo-[0-9a-f]{8}$/);
    expect(result.previousEndpointConfigName).toBe("demo");
    const model = sageMaker.commandCalls(CreateModelCommand)[0]!.args[0].input;
    expect(model.ModelName).toBe(result.modelName);
    expect(model.PrimaryContainer?.Environment).toMatchObject({ SEMIF_TEMPERATURE: "1.4", ADAPTER_THREADS: "8" });
    expect(model.PrimaryContainer?.Image).toBe(imageUri);
    expect(model.EnableNetworkIsolation).toBe(true);
    const config = sageMaker.commandCalls(CreateEndpointConfigCommand)[0]!.args[0].input;
    expect(config.ProductionVariants?.[0]).toMatchObject({ ModelName: result.modelName, VariantName: "AllTraffic" });

    const alarms = cloudWatch.commandCalls(PutMetricAlarmCommand).map((call) => call.args[0].input);
    expect(alarms.map((a) => [a.AlarmName, a.MetricName, a.Threshold])).toEqual([
      ["demo-rollback-5xx", "Invocation5XXErrors", 0],
      ["demo-rollback-latency-average", "ModelLatency", 1_500_000],
      ["demo-rollback-model-errors", "InvocationModelErrors", 0],
    ]);
    expect(sageMaker).toHaveReceivedCommandWith(UpdateEndpointCommand, {
      EndpointName: "demo",
      EndpointConfigName: result.endpointConfigName,
      RetainAllVariantProperties: true,
      DeploymentConfig: {
        BlueGreenUpdatePolicy: {
          TrafficRoutingConfiguration: {
            Type: "CANARY",
            CanarySize: { Type: "CAPACITY_PERCENT", Value: 25 },
            WaitIntervalInSeconds: 300,
          },
          TerminationWaitInSeconds: 0,
        },
        AutoRollbackConfiguration: { Alarms: alarms.map((a) => ({ AlarmName: a.AlarmName })) },
      },
    });
  });

  it("guards an asynchronous endpoint with InvocationFailures, the failure metric SageMaker publishes for it", async () => {
    sageMaker.on(DescribeEndpointConfigCommand).resolves({
      ...describedCpuConfig(),
      AsyncInferenceConfig: { OutputConfig: { S3OutputPath: "s3://bucket/async/demo/out/" } },
    });
    await updateEndpoint(clients, "demo", request());
    const alarms = cloudWatch.commandCalls(PutMetricAlarmCommand).map((call) => call.args[0].input);
    expect(alarms.map((a) => [a.AlarmName, a.MetricName, a.Statistic])).toEqual([
      ["demo-rollback-5xx", "Invocation5XXErrors", "Sum"],
      ["demo-rollback-latency-average", "ModelLatency", "Average"],
      ["demo-rollback-invocation-failures", "InvocationFailures", "Sum"],
    ]);
  });

  it("derives the same names for the same change, and reuses what already exists", async () => {
    const first = await updateEndpoint(clients, "demo", request());
    sageMaker
      .on(CreateModelCommand)
      .rejects({ name: "ValidationException", message: "Cannot create already existing model" });
    sageMaker
      .on(CreateEndpointConfigCommand)
      .rejects({ name: "ValidationException", message: "Cannot create already existing endpoint configuration" });
    const second = await updateEndpoint(clients, "demo", request({ alarms: { kind: "none" } }));
    expect(second.endpointConfigName).toBe(first.endpointConfigName);
    expect(sageMaker.commandCalls(UpdateEndpointCommand)[1]!.args[0].input.DeploymentConfig).not.toHaveProperty(
      "AutoRollbackConfiguration",
    );
  });

  it("sets the instance count instead of keeping the serving one, and rolls in batches", async () => {
    await updateEndpoint(
      clients,
      "demo",
      request({
        change: { instanceCount: 4, threads: 2 },
        strategy: { kind: "rolling", size: { unit: "instances", value: 1 }, waitSeconds: 60 },
      }),
    );
    const config = sageMaker.commandCalls(CreateEndpointConfigCommand)[0]!.args[0].input;
    expect(config.ProductionVariants?.[0]?.InitialInstanceCount).toBe(4);
    const update = sageMaker.commandCalls(UpdateEndpointCommand)[0]!.args[0].input;
    expect(update.RetainAllVariantProperties).toBe(false);
    expect(update.DeploymentConfig?.RollingUpdatePolicy).toEqual({
      MaximumBatchSize: { Type: "INSTANCE_COUNT", Value: 1 },
      WaitIntervalInSeconds: 60,
    });
  });

  it("removes what it created when SageMaker refuses the update, and says why", async () => {
    sageMaker.on(UpdateEndpointCommand).rejects({
      name: "ValidationException",
      message: "CanarySize (25%) of the variant's total instance count (1) is less than one instance.",
      $metadata: { httpStatusCode: 400 },
    });
    await expect(updateEndpoint(clients, "demo", request())).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("less than one instance"),
    });
    expect(sageMaker).toHaveReceivedCommandTimes(DeleteEndpointConfigCommand, 1);
    expect(sageMaker).toHaveReceivedCommandTimes(DeleteModelCommand, 1);
  });

  it("refuses an endpoint that is not InService, and a change that changes nothing", async () => {
    await expect(updateEndpoint(clients, "demo", request({ change: { threads: 8 } }))).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("nothing differs"),
    });
    sageMaker.on(DescribeEndpointCommand).resolves(describedEndpoint({ EndpointStatus: "Updating" }));
    await expect(updateEndpoint(clients, "demo", request())).rejects.toMatchObject({ status: 409 });
    expect(sageMaker).not.toHaveReceivedCommand(CreateModelCommand);
  });

  it("records the configuration it replaces in the new model's tags, and rolls back to it by name", async () => {
    const result = await updateEndpoint(clients, "demo", request({ alarms: { kind: "none" } }));
    const model = sageMaker.commandCalls(CreateModelCommand)[0]!.args[0].input;
    expect(model.Tags).toEqual([{ Key: "decision-console:previous-config", Value: "demo" }]);
    // Nothing of the console's own in the container's environment, not even what an earlier console left there.
    expect(describedModel().PrimaryContainer?.Environment).toHaveProperty("DECISION_CONSOLE_API_MODE");
    expect(Object.keys(model.PrimaryContainer?.Environment ?? {}).filter(consoleVariable)).toEqual([]);

    sageMaker
      .on(DescribeEndpointCommand)
      .resolves(describedEndpoint({ EndpointConfigName: result.endpointConfigName }));
    const back = await updateEndpoint(clients, "demo", backToDemo());
    expect(back).toMatchObject({ endpointConfigName: "demo", previousEndpointConfigName: result.endpointConfigName });
    expect(sageMaker.commandCalls(UpdateEndpointCommand)[1]!.args[0].input).toMatchObject({
      EndpointConfigName: "demo",
      RetainAllVariantProperties: true,
    });
    expect(sageMaker.commandCalls(CreateModelCommand)).toHaveLength(1);
    await expect(
      updateEndpoint(clients, "demo", request({ change: {}, rollBackTo: "other-endpoint", alarms: { kind: "none" } })),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining("not an earlier configuration") });
  });

  const chatEnvironment = { SM_LLAMA_CPP_CTX_SIZE: "4096", SM_LLAMA_CPP_THREADS: "8" };
  it("keeps the sha256 a chat model records in its tags, and records a new one with new model data", async () => {
    const decision = describedModel();
    const chat = { ...decision, PrimaryContainer: { ...decision.PrimaryContainer, Environment: chatEnvironment } };
    sageMaker.on(DescribeModelCommand).resolves(chat);
    sageMaker.on(ListTagsCommand, { ResourceArn: chat.ModelArn }).resolves({
      Tags: [{ Key: "decision-console:model-sha256", Value: "b".repeat(64) }],
    });
    const chatRequest = (change: UpdateRequestInput["change"]) => request({ change, alarms: { kind: "none" } });
    await updateEndpoint(clients, "demo", chatRequest({ threads: 4 }));
    const kept = sageMaker.commandCalls(CreateModelCommand)[0]!.args[0].input;
    expect(kept.Tags).toContainEqual({ Key: "decision-console:model-sha256", Value: "b".repeat(64) });
    expect(Object.keys(kept.PrimaryContainer?.Environment ?? {}).filter(consoleVariable)).toEqual([]);

    const url = "s3://artifacts-bucket/models/other/model.tar.gz";
    await updateEndpoint(clients, "demo", chatRequest({ modelDataUrl: url, modelSha256: "c".repeat(64) }));
    const replaced = sageMaker.commandCalls(CreateModelCommand)[1]!.args[0].input;
    expect(replaced.Tags).toContainEqual({ Key: "decision-console:model-sha256", Value: "c".repeat(64) });
    expect(replaced.PrimaryContainer?.Environment).not.toHaveProperty("ADAPTER_MODEL_SHA256");
    expect(Object.keys(replaced.PrimaryContainer?.Environment ?? {}).filter(consoleVariable)).toEqual([]);
    await expect(updateEndpoint(clients, "demo", chatRequest({ threads: 8 }))).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("nothing differs"),
    });
  });

  it("follows the history through the models' previous-config tags", async () => {
    const history = serveConfigHistory();
    const arn = (name: string) => `arn:aws:sagemaker:us-east-1:123456789012:model/${name}`;
    sageMaker
      .on(DescribeModelCommand)
      .callsFake(({ ModelName }) => ({ ...describedModel(), ModelName, ModelArn: arn(ModelName) }));
    sageMaker.on(ListTagsCommand).callsFake(({ ResourceArn }) => {
      const previous = history[String(ResourceArn).split("/")[1] ?? ""];
      return { Tags: previous ? [{ Key: "decision-console:previous-config", Value: previous }] : [] };
    });
    await updateEndpoint(clients, "demo", request({ alarms: { kind: "none" } }));
    expect(sageMaker.commandCalls(DeleteEndpointConfigCommand).map((c) => c.args[0].input.EndpointConfigName)).toEqual([
      "demo-11111111",
    ]);
    const created = sageMaker.commandCalls(CreateModelCommand)[0]!.args[0].input;
    expect(created.Tags).toEqual([{ Key: "decision-console:previous-config", Value: "demo-33333333" }]);
  });

  it("keeps two configurations before the serving one and deletes the one before those (an earlier console's variables)", async () => {
    const history = serveConfigHistory();
    sageMaker.on(DescribeModelCommand).callsFake(({ ModelName }) => {
      const model = describedModel();
      const previous = history[ModelName];
      return {
        ...model,
        ModelName,
        PrimaryContainer: {
          ...model.PrimaryContainer,
          Environment: {
            ...model.PrimaryContainer?.Environment,
            ...(previous ? { DECISION_CONSOLE_PREVIOUS_CONFIG: previous } : {}),
          },
        },
      };
    });
    await updateEndpoint(clients, "demo", request({ alarms: { kind: "none" } }));
    expect(sageMaker.commandCalls(DeleteEndpointConfigCommand).map((c) => c.args[0].input.EndpointConfigName)).toEqual([
      "demo-11111111",
    ]);
    expect(sageMaker.commandCalls(DeleteModelCommand).map((c) => c.args[0].input.ModelName)).toEqual(["demo-11111111"]);
  });
});
describe("an update that changes the instance type of a variant with autoscaling", () => {
  const resourceId = "endpoint/demo/variant/AllTraffic";
  const tracking = {
    TargetValue: 120,
    PredefinedMetricSpecification: { PredefinedMetricType: "SageMakerVariantInvocationsPerInstance" as const },
    ScaleInCooldown: 600,
    ScaleOutCooldown: 30,
    DisableScaleIn: false,
  };
  beforeEach(() => {
    serveTheDemoEndpoint();
    autoScaling.on(DescribeScalableTargetsCommand).resolves({
      ScalableTargets: [
        {
          ServiceNamespace: "sagemaker",
          ResourceId: resourceId,
          ScalableDimension: "sagemaker:variant:DesiredInstanceCount",
          MinCapacity: 2,
          MaxCapacity: 6,
          RoleARN: "arn:aws:iam::123456789012:role/scaling",
          CreationTime: new Date(),
        },
      ],
    });
    autoScaling.on(DescribeScalingPoliciesCommand).resolves({
      ScalingPolicies: [
        {
          PolicyName: "demo-invocations-per-instance",
          PolicyARN: "arn:policy",
          ServiceNamespace: "sagemaker",
          ResourceId: resourceId,
          ScalableDimension: "sagemaker:variant:DesiredInstanceCount",
          PolicyType: "TargetTrackingScaling",
          TargetTrackingScalingPolicyConfiguration: tracking,
          CreationTime: new Date(),
        },
      ],
    });
  });

  it("deregisters the scalable target, updates, and registers it again with the same bounds and policy once InService", async () => {
    const tasks: Promise<void>[] = [];
    const result = await updateEndpoint(
      clients,
      "demo",
      request({ change: { instancePools: ["ml.c7i.2xlarge", "ml.c6i.2xlarge"] }, alarms: { kind: "none" } }),
      { pollSeconds: 1, afterUpdate: (task) => tasks.push(task) },
    );
    expect(result.autoscalingReRegistered).toMatchObject({ minCapacity: 2, maxCapacity: 6 });
    const config = sageMaker.commandCalls(CreateEndpointConfigCommand)[0]!.args[0].input;
    expect(config.ProductionVariants?.[0]).toMatchObject({
      InstancePools: [
        { InstanceType: "ml.c7i.2xlarge", Priority: 1 },
        { InstanceType: "ml.c6i.2xlarge", Priority: 2 },
      ],
    });
    expect(config.ProductionVariants?.[0]).not.toHaveProperty("InstanceType");
    const deregistered = autoScaling.commandCalls(DeregisterScalableTargetCommand)[0]!;
    const updated = sageMaker.commandCalls(UpdateEndpointCommand)[0]!;
    expect(deregistered.calledBefore(updated)).toBe(true);
    expect(autoScaling).toHaveReceivedCommand(DeleteScalingPolicyCommand);
    expect(tasks).toHaveLength(1);
    await tasks[0];
    expect(autoScaling).toHaveReceivedCommandWith(RegisterScalableTargetCommand, {
      ResourceId: resourceId,
      MinCapacity: 2,
      MaxCapacity: 6,
    });
    expect(autoScaling).toHaveReceivedCommandWith(PutScalingPolicyCommand, {
      PolicyName: "demo-invocations-per-instance",
      TargetTrackingScalingPolicyConfiguration: tracking,
    });
  });

  it("does the same when rolling back to a configuration of another instance type", async () => {
    sageMaker.on(DescribeEndpointCommand).resolves(describedEndpoint({ EndpointConfigName: "demo-aaaaaaaa" }));
    sageMaker.on(DescribeEndpointConfigCommand).callsFake(({ EndpointConfigName }) => {
      const config = describedCpuConfig();
      const variant = { ...config.ProductionVariants![0]!, InstanceType: undefined };
      return EndpointConfigName === "demo"
        ? {
            ...config,
            ProductionVariants: [{ ...variant, InstancePools: [{ InstanceType: "ml.c7i.2xlarge", Priority: 1 }] }],
          }
        : config;
    });
    const tasks: Promise<void>[] = [];
    const back = await updateEndpoint(clients, "demo", backToDemo(), {
      pollSeconds: 1,
      afterUpdate: (task) => tasks.push(task),
    });
    expect(back.autoscalingReRegistered).toMatchObject({ minCapacity: 2, maxCapacity: 6 });
    expect(
      autoScaling
        .commandCalls(DeregisterScalableTargetCommand)[0]!
        .calledBefore(sageMaker.commandCalls(UpdateEndpointCommand)[0]!),
    ).toBe(true);
    await Promise.all(tasks);
    expect(autoScaling).toHaveReceivedCommandWith(RegisterScalableTargetCommand, { MinCapacity: 2, MaxCapacity: 6 });
  });

  it("registers the target again at once when SageMaker refuses the update", async () => {
    sageMaker.on(UpdateEndpointCommand).rejects({
      name: "ResourceLimitExceeded",
      message: "The account-level service limit for ml.c7i.2xlarge is 0 Instances",
      $metadata: { httpStatusCode: 400 },
    });
    const tasks: Promise<void>[] = [];
    await expect(
      updateEndpoint(
        clients,
        "demo",
        request({ change: { instanceType: "ml.c7i.2xlarge" }, alarms: { kind: "none" } }),
        { afterUpdate: (task) => tasks.push(task) },
      ),
    ).rejects.toMatchObject({ message: expect.stringContaining("service limit") });
    expect(tasks).toEqual([]);
    expect(autoScaling).toHaveReceivedCommandWith(RegisterScalableTargetCommand, { MinCapacity: 2, MaxCapacity: 6 });
    expect(autoScaling).toHaveReceivedCommand(PutScalingPolicyCommand);
  });

  it("leaves autoscaling alone when the instance type stays, and refuses a type and pools together", async () => {
    const result = await updateEndpoint(clients, "demo", request({ alarms: { kind: "none" } }));
    expect(result.autoscalingReRegistered).toBeNull();
    expect(autoScaling.calls()).toHaveLength(0);
    await expect(
      updateEndpoint(
        clients,
        "demo",
        request({ change: { instanceType: "ml.c7i.2xlarge", instancePools: ["ml.c7i.4xlarge"] } }),
      ),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining("not both") });
  });
});
