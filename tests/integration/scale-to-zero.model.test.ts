import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  ApplicationAutoScalingClient,
  DescribeScalingActivitiesCommand,
  DescribeScalingPoliciesCommand,
  PutScalingPolicyCommand,
  RegisterScalableTargetCommand,
} from "@aws-sdk/client-application-auto-scaling";
import { CloudWatchClient, DescribeAlarmsCommand } from "@aws-sdk/client-cloudwatch";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { DescribeEndpointCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import { SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import { type ControlPlane, localClientConfig, startControlPlane } from "@decision-console/local-aws";
import {
  createEndpoint,
  localAdapterImageUri,
  MetricClock,
  testExecutionRoleArn,
  testStackFixture,
  writeTinyModel,
} from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { autoscalingRequestSchema } from "../../contract/endpoints/autoscaling.ts";
import { wakeAlarmName } from "../../server/autoscaling/scale-to-zero.ts";
import { configureAutoscaling, describeAutoscaling } from "../../server/autoscaling/variant-scaling.ts";
import { consoleClientsFor } from "../../server/aws/local-console-clients.ts";
import { invokeEndpointAsync } from "../../server/invoke/invoke-async.ts";
import { instanceHistory } from "../../server/metrics/instance-history.ts";
import { awaitAsyncOutcome } from "../support/await-async-outcome.ts";

const LOCAL_ARTIFACT_BUCKET = testStackFixture().bucket;

/**
 * Scale to zero and wake-up of an asynchronous endpoint on real adapter processes, configured by the console's own
 * code with its credentials, as SageMaker's guide "Autoscale an asynchronous endpoint" does it: MinCapacity 0, target
 * tracking on ApproximateBacklogSizePerInstance, and a step policy acting on a HasBacklogWithoutCapacity alarm. The metric clock runs ahead of real time (alarm
 * periods of a minute pass in a loop); requests, adapter starts and the queue run in real time.
 */
const ENDPOINT = "dc-async-s2z";
const bucket = LOCAL_ARTIFACT_BUCKET;
const target = {
  ServiceNamespace: "sagemaker",
  ResourceId: `endpoint/${ENDPOINT}/variant/AllTraffic`,
  ScalableDimension: "sagemaker:variant:DesiredInstanceCount",
} as const;
const decision = (id: string) => ({
  decision: {
    id,
    state: "Customer: I was charged twice for my subscription this month.",
    question: "Which team should handle this ticket?",
    options: [
      { id: "billing", description: "The billing team" },
      { id: "tech", description: "The tech team" },
    ],
  },
});

let dataDir: string;
let plane: ControlPlane;
const clock = new MetricClock();

function clients() {
  const config = localClientConfig(plane, "admin");
  return {
    sageMaker: new SageMakerClient(config),
    runtime: new SageMakerRuntimeClient(config),
    s3: new S3Client({ ...config, forcePathStyle: true }),
    cloudWatch: new CloudWatchClient(config),
    autoScaling: new ApplicationAutoScalingClient(config),
  };
}

async function instanceCount(): Promise<number | undefined> {
  const described = await clients().sageMaker.send(new DescribeEndpointCommand({ EndpointName: ENDPOINT }));
  return described.ProductionVariants?.[0]?.CurrentInstanceCount;
}

/**
 * Moves the metric clock on in 10 s steps (publishing the backlog metrics and evaluating the alarms at each, as the
 * local services do on their timers) until a scaling activity starts; answers the simulated seconds it took.
 */
async function advanceUntilScaling(limitSeconds: number): Promise<number> {
  for (let seconds = 10; seconds <= limitSeconds; seconds += 10) {
    await clock.step(plane);
    const described = await clients().sageMaker.send(new DescribeEndpointCommand({ EndpointName: ENDPOINT }));
    if (described.EndpointStatus === "Updating") {
      await plane.endpoints.settled(ENDPOINT);
      return seconds;
    }
  }
  throw new Error(`no scaling activity within ${limitSeconds} simulated seconds`);
}

/** The console's own polling of an asynchronous request, signed as the console. */
const answered = (inferenceId: string) => awaitAsyncOutcome(consoleClientsFor(plane), ENDPOINT, inferenceId, 120_000);

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-s2z-"));
  const gguf = path.join(dataDir, "tiny.gguf");
  writeTinyModel(gguf);
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0, metricClock: clock.now });
  const { s3, sageMaker } = clients();
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: "models/s2z/model.gguf", Body: fs.readFileSync(gguf) }));
  const image = localAdapterImageUri(plane);
  await createEndpoint(
    sageMaker,
    ENDPOINT,
    {
      Image: image,
      ModelDataSource: {
        S3DataSource: { S3Uri: `s3://${bucket}/models/s2z/`, S3DataType: "S3Prefix", CompressionType: "None" },
      },
      Environment: { ADAPTER_THREADS: "1", ADAPTER_PARALLEL: "2", ADAPTER_READING_CACHE: "0" },
    },
    {
      executionRoleArn: testExecutionRoleArn(),
      asyncInference: {
        OutputConfig: {
          S3OutputPath: `s3://${bucket}/async/${ENDPOINT}/out/`,
          S3FailurePath: `s3://${bucket}/async/${ENDPOINT}/failed/`,
        },
      },
    },
  );
  await plane.endpoints.settled(ENDPOINT);
});

afterAll(async () => {
  await plane?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("an asynchronous endpoint scaled to zero on real adapter processes", { timeout: 240_000 }, () => {
  it("takes the console's scale-to-zero setup, signed as the console: target tracking alarms, step policy, wake alarm", async () => {
    const consoleClients = consoleClientsFor(plane);
    const request = autoscalingRequestSchema.parse({
      minCapacity: 0,
      maxCapacity: 1,
      scaleToZero: true,
      scaleInCooldownSeconds: 60,
      scaleOutCooldownSeconds: 60,
    });
    await configureAutoscaling(consoleClients, ENDPOINT, "AllTraffic", request);
    expect(await describeAutoscaling(consoleClients.autoScaling, ENDPOINT, "AllTraffic")).toMatchObject({
      minCapacity: 0,
      scaleToZero: true,
      targetBacklogPerInstance: 5,
    });

    const { autoScaling, cloudWatch } = clients();
    const policies = await autoScaling.send(
      new DescribeScalingPoliciesCommand({ ServiceNamespace: "sagemaker", ResourceId: target.ResourceId }),
    );
    const tracking = policies.ScalingPolicies?.find((p) => p.PolicyType === "TargetTrackingScaling");
    const step = policies.ScalingPolicies?.find((p) => p.PolicyType === "StepScaling");
    expect(tracking?.Alarms?.map((a) => a.AlarmName)).toEqual([
      expect.stringMatching(new RegExp(`^TargetTracking-${target.ResourceId}-AlarmHigh-[0-9a-f-]{36}$`)),
      expect.stringMatching(new RegExp(`^TargetTracking-${target.ResourceId}-AlarmLow-[0-9a-f-]{36}$`)),
    ]);
    const alarms = await cloudWatch.send(
      new DescribeAlarmsCommand({
        AlarmNames: [...(tracking?.Alarms ?? []).map((a) => a.AlarmName ?? ""), wakeAlarmName(ENDPOINT)],
      }),
    );
    expect(alarms.MetricAlarms?.map((a) => [a.MetricName, a.Threshold, a.EvaluationPeriods, a.AlarmActions])).toEqual([
      ["ApproximateBacklogSizePerInstance", 5, 3, [tracking?.PolicyARN]],
      ["ApproximateBacklogSizePerInstance", 4.5, 15, [tracking?.PolicyARN]],
      ["HasBacklogWithoutCapacity", 1, 2, [step?.PolicyARN]],
    ]);
  });

  it("refuses step adjustments that overlap and MinAdjustmentMagnitude without PercentChangeInCapacity", async () => {
    const { autoScaling } = clients();
    const put = (StepScalingPolicyConfiguration: object) =>
      autoScaling.send(
        new PutScalingPolicyCommand({
          ...target,
          PolicyName: "bad",
          PolicyType: "StepScaling",
          StepScalingPolicyConfiguration,
        }),
      );
    await expect(
      put({
        AdjustmentType: "ChangeInCapacity",
        StepAdjustments: [
          { MetricIntervalLowerBound: 0, ScalingAdjustment: 1 },
          { MetricIntervalLowerBound: 5, ScalingAdjustment: 2 },
        ],
      }),
    ).rejects.toMatchObject({ name: "ValidationException", message: expect.stringContaining("overlap") });
    await expect(
      put({
        AdjustmentType: "ChangeInCapacity",
        MinAdjustmentMagnitude: 2,
        StepAdjustments: [{ MetricIntervalLowerBound: 0, ScalingAdjustment: 1 }],
      }),
    ).rejects.toMatchObject({
      name: "ValidationException",
      message: expect.stringContaining("PercentChangeInCapacity"),
    });
  });

  it("scales in to 0 instances when the queue stays empty, keeps 0 across a restart, then wakes for a request and answers it", async () => {
    const [instance] = plane.endpoints.healthyInstances(ENDPOINT);
    expect(instance?.pid).toBeDefined();

    // Empty queue: AlarmLow needs 15 one-minute datapoints below 4.5 requests per instance.
    const idle = await advanceUntilScaling(20 * 60);
    const low = plane.alarms.all().find((alarm) => alarm.definition.AlarmName.includes("-AlarmLow-"));
    expect(low).toMatchObject({ state: "ALARM", stateReason: expect.stringContaining("15 out of the last 15") });
    // Backlog datapoints published before the clock moved on count too: at least 14 of the 15 minutes pass here.
    expect(idle).toBeGreaterThanOrEqual(14 * 60);
    expect(await instanceCount()).toBe(0);
    expect(plane.endpoints.healthyInstances(ENDPOINT)).toEqual([]);
    expect(running(instance?.pid ?? 0)).toBe(false);

    // A restart of the control plane keeps the variant at 0 instances (and its policies and alarms).
    await plane.close();
    plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0, metricClock: clock.now });
    expect(await instanceCount()).toBe(0);
    // Registering the target again (the card saved once more) leaves a count inside the bounds where it is.
    await clients().autoScaling.send(new RegisterScalableTargetCommand({ ...target, MinCapacity: 0, MaxCapacity: 1 }));
    await plane.endpoints.settled(ENDPOINT);
    expect(await instanceCount()).toBe(0);

    // A request while scaled in: it waits in the queue; HasBacklogWithoutCapacity alarms; the step policy adds one.
    // The playground's asynchronous invocation, signed as the console.
    const { s3, runtime } = consoleClientsFor(plane);
    const submittedAt = performance.now();
    const queued = await invokeEndpointAsync({ s3, runtime }, bucket, ENDPOINT, decision("wake"));
    const wakeAlarm = await advanceUntilScaling(5 * 60);
    expect(wakeAlarm).toBeLessThanOrEqual(3 * 60);
    const result = await answered(queued.inferenceId);
    const coldMs = performance.now() - submittedAt;
    expect(result.status).toBe("completed");
    expect(await instanceCount()).toBe(1);
    const [woken] = plane.endpoints.healthyInstances(ENDPOINT);
    expect(woken?.pid).not.toBe(instance?.pid);

    // Both changes are scaling activities, newest first, kept across the restart; the console charts 1 -> 0 -> 1.
    const { ScalingPolicies: policies = [] } = await clients().autoScaling.send(
      new DescribeScalingPoliciesCommand({ ServiceNamespace: "sagemaker", ResourceId: target.ResourceId }),
    );
    const policyOfType = (type: string) => policies.find((p) => p.PolicyType === type)?.PolicyName;
    const activities = await clients().autoScaling.send(new DescribeScalingActivitiesCommand(target));
    expect(
      activities.ScalingActivities?.map((a) => [a.Description, a.StatusCode, a.Cause?.replace(/-[0-9a-f-]{36}/, "")]),
    ).toEqual([
      [
        "Setting desired instance count to 1.",
        "Successful",
        `monitor alarm ${wakeAlarmName(ENDPOINT)} in state ALARM triggered policy ${policyOfType("StepScaling")}`,
      ],
      [
        "Setting desired instance count to 0.",
        "Successful",
        `monitor alarm TargetTracking-${target.ResourceId}-AlarmLow in state ALARM triggered policy ${policyOfType("TargetTrackingScaling")}`,
      ],
    ]);
    const [wokeUp, scaledIn] = activities.ScalingActivities ?? [];
    expect(scaledIn?.EndTime?.getTime()).toBeLessThan(wokeUp?.StartTime?.getTime() ?? 0);
    const now = new Date(clock.now());
    const [series] = await instanceHistory(
      consoleClientsFor(plane),
      ENDPOINT,
      new Date(now.getTime() - 3 * 3600_000),
      now,
    );
    expect(series?.variantName).toBe("AllTraffic");
    expect(series?.points.map((point) => point.value)).toEqual([1, 0, 1]);
    expect(series?.points.slice(1).map((point) => point.at)).toEqual([
      scaledIn?.EndTime?.toISOString(),
      wokeUp?.EndTime?.toISOString(),
    ]);

    const warmAt = performance.now();
    const warm = await invokeEndpointAsync({ s3, runtime }, bucket, ENDPOINT, decision("warm"));
    expect((await answered(warm.inferenceId)).status).toBe("completed");
    const warmMs = performance.now() - warmAt;
    console.log(
      JSON.stringify({
        scaleToZero: { simulatedIdleSeconds: idle, simulatedAlarmSeconds: wakeAlarm, coldMs, warmMs },
      }),
    );
  });
});
