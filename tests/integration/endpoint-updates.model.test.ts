import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CloudWatchClient, DescribeAlarmsCommand, PutMetricAlarmCommand } from "@aws-sdk/client-cloudwatch";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import {
  CreateEndpointCommand,
  CreateEndpointConfigCommand,
  CreateModelCommand,
  DescribeEndpointCommand,
  type DescribeEndpointOutput,
  type ProductionVariantInstanceType,
  SageMakerClient,
  UpdateEndpointCommand,
  type UpdateEndpointInput,
} from "@aws-sdk/client-sagemaker";
import type { SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import { type ControlPlane, localClientConfig, startControlPlane } from "@decision-console/local-aws";
import {
  allExit,
  localAdapterImageUri,
  routeDecision,
  testExecutionRoleArn,
  testStackFixture,
  writeTinyModel,
} from "@decision-console/local-aws/testing";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { updateRequestSchema } from "../../contract/endpoints/update.ts";
import { configureAutoscaling, describeAutoscaling } from "../../server/autoscaling/variant-scaling.ts";
import { consoleClientsFor } from "../../server/aws/local-console-clients.ts";
import { describeEndpoint as describeForConsole } from "../../server/endpoints/describe.ts";
import { updateEndpoint } from "../../server/endpoints/update.ts";
import { invokeEndpoint } from "../../server/invoke/invoke.ts";
import { openTestStore, type TestStore } from "../support/store/test-stores.ts";

const LOCAL_ARTIFACT_BUCKET = testStackFixture().bucket;

/**
 * UpdateEndpoint against real adapter processes: a canary update of the temperature in which both fleets answer
 * while the canary bakes and no invocation fails, then a second update that a real alarm (on the 4XX errors the
 * local endpoint reports) rolls back to the serving configuration.
 */
const ENDPOINT = "dc-updates";
const decision = routeDecision;

let dataDir: string;
let plane: ControlPlane;
let console_: TestStore;
let sageMaker: SageMakerClient;
let runtime: SageMakerRuntimeClient;
let cloudWatch: CloudWatchClient;
let imageUri: string;
let modelDataUrl: string;

/** A model of the tiny GGUF at `temperature` and a 2-instance endpoint configuration of it, both named `name`. */
async function createConfig(
  name: string,
  temperature: string,
  instanceType: ProductionVariantInstanceType = "ml.c6i.2xlarge",
) {
  await sageMaker.send(
    new CreateModelCommand({
      ModelName: name,
      ExecutionRoleArn: testExecutionRoleArn(),
      PrimaryContainer: {
        Image: imageUri,
        ModelDataUrl: modelDataUrl,
        Environment: { ADAPTER_THREADS: "1", ADAPTER_READING_CACHE: "0", SEMIF_TEMPERATURE: temperature },
      },
    }),
  );
  await sageMaker.send(
    new CreateEndpointConfigCommand({
      EndpointConfigName: name,
      ProductionVariants: [
        { VariantName: "AllTraffic", ModelName: name, InstanceType: instanceType, InitialInstanceCount: 2 },
      ],
    }),
  );
}

const describeEndpoint = () => sageMaker.send(new DescribeEndpointCommand({ EndpointName: ENDPOINT }));

/** The decision's probabilities to 3 places (instances differ in the last digits), a key for its temperature. */
async function answer(): Promise<string> {
  const result = await invokeEndpoint(runtime, ENDPOINT, decision);
  return (result.body as { result: { probabilities: number[] } }).result.probabilities.map((p) => p.toFixed(3)).join();
}

/** Polls DescribeEndpoint until `done` holds (bounded). */
async function until(done: (endpoint: DescribeEndpointOutput) => boolean, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const endpoint = await describeEndpoint();
    if (done(endpoint)) return endpoint;
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(endpoint)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const lastStage = (endpoint: DescribeEndpointOutput) =>
  endpoint.PendingDeploymentSummary?.ProductionVariants?.[0]?.VariantStatus?.at(-1);

/** What the console's server functions sign with: its own profile, held to the stack's console policy. */
function consoleClients() {
  return consoleClientsFor(plane);
}

/** The console's clients and its store, as its update runs with them. */
function updateClients() {
  return { ...consoleClients(), store: console_.store };
}

/** Pids of the endpoint's adapters, by picking every instance a few times over (both fleets during an update). */
async function servingPids(picks = 40): Promise<Set<number>> {
  const pids = new Set<number>();
  for (let i = 0; i < picks; i++) {
    const picked = await plane.endpoints.pick(ENDPOINT);
    picked?.release();
    if (picked?.pid) pids.add(picked.pid);
  }
  return pids;
}

/** Invokes from `callers` concurrent loops until stopped; what it counts is what the test asserts on. */
function trafficFrom(callers: number) {
  const answers: string[] = [];
  const failures: unknown[] = [];
  let stopped = false;
  const loops = Array.from({ length: callers }, async () => {
    while (!stopped) {
      await answer().then(
        (a) => answers.push(a),
        (e: unknown) => failures.push(e),
      );
    }
  });
  return {
    answers,
    failures,
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "endpoint-updates-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0 });
  const config = localClientConfig(plane, "admin");
  sageMaker = new SageMakerClient(config);
  // invokeEndpoint is the console's, so it signs as the console.
  runtime = consoleClients().runtime;
  cloudWatch = new CloudWatchClient(config);
  const staging = path.join(dataDir, "model");
  writeTinyModel(path.join(staging, "tiny.gguf"));
  const archive = path.join(dataDir, "model.tar.gz");
  await tar.c({ gzip: true, file: archive, cwd: staging }, ["tiny.gguf"]);
  await new S3Client({ ...config, forcePathStyle: true }).send(
    new PutObjectCommand({
      Bucket: LOCAL_ARTIFACT_BUCKET,
      Key: "models/updates/model.tar.gz",
      Body: fs.readFileSync(archive),
    }),
  );
  modelDataUrl = `s3://${LOCAL_ARTIFACT_BUCKET}/models/updates/model.tar.gz`;
  imageUri = localAdapterImageUri(plane);
  await createConfig("dc-updates-t1", "1");
  await createConfig("dc-updates-t3", "3");
  await sageMaker.send(new CreateEndpointCommand({ EndpointName: ENDPOINT, EndpointConfigName: "dc-updates-t1" }));
  await plane.endpoints.settled(ENDPOINT);
  console_ = await openTestStore("sqlite");
});

afterAll(async () => {
  await console_?.close();
  await plane?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("UpdateEndpoint on local endpoints", { timeout: 180_000 }, () => {
  it("refuses deployment configurations the API reference refuses, naming the rule", async () => {
    expect((await describeEndpoint()).EndpointStatus).toBe("InService");
    const update = (DeploymentConfig: UpdateEndpointInput["DeploymentConfig"]) =>
      sageMaker.send(
        new UpdateEndpointCommand({ EndpointName: ENDPOINT, EndpointConfigName: "dc-updates-t3", DeploymentConfig }),
      );
    const routing = (config: Record<string, unknown>) => ({
      BlueGreenUpdatePolicy: { TrafficRoutingConfiguration: { WaitIntervalInSeconds: 0, ...config } as never },
    });
    const refusals: [UpdateEndpointInput["DeploymentConfig"], string][] = [
      [routing({ Type: "CANARY", CanarySize: { Type: "CAPACITY_PERCENT", Value: 60 } }), "less than or equal to 50%"],
      [routing({ Type: "CANARY" }), "CanarySize must be specified"],
      [routing({ Type: "LINEAR", LinearStepSize: { Type: "CAPACITY_PERCENT", Value: 5 } }), "between 10% and 50%"],
      [routing({ Type: "ALL_AT_ONCE", WaitIntervalInSeconds: 3601 }), "less than or equal to 3600"],
      [
        {
          BlueGreenUpdatePolicy: {
            TrafficRoutingConfiguration: { Type: "ALL_AT_ONCE", WaitIntervalInSeconds: 0 },
            MaximumExecutionTimeoutInSeconds: 599,
          },
        },
        "greater than or equal to 600",
      ],
      [
        {
          ...routing({ Type: "ALL_AT_ONCE" }),
          RollingUpdatePolicy: { MaximumBatchSize: { Type: "INSTANCE_COUNT", Value: 1 }, WaitIntervalInSeconds: 0 },
        },
        "Only one of BlueGreenUpdatePolicy and RollingUpdatePolicy",
      ],
      [
        {
          ...routing({ Type: "ALL_AT_ONCE" }),
          AutoRollbackConfiguration: { Alarms: [{ AlarmName: "no-such-alarm" }] },
        },
        "[no-such-alarm]",
      ],
    ];
    for (const [config, message] of refusals) {
      const error = await update(config).catch((e: unknown) => e);
      expect(error, message).toMatchObject({ name: "ValidationException", $metadata: { httpStatusCode: 400 } });
      expect((error as Error).message).toContain(message);
    }
    expect((await describeEndpoint()).EndpointStatus).toBe("InService");
  });

  it("shifts a canary to the new temperature, serves both while it bakes, then only the new one", async () => {
    const before = await answer();
    const oldPids = await servingPids();
    expect(oldPids.size).toBe(2);
    const deploymentConfig = {
      BlueGreenUpdatePolicy: {
        TrafficRoutingConfiguration: {
          Type: "CANARY" as const,
          CanarySize: { Type: "INSTANCE_COUNT" as const, Value: 1 },
          WaitIntervalInSeconds: 6,
        },
        TerminationWaitInSeconds: 0,
      },
    };
    await sageMaker.send(
      new UpdateEndpointCommand({
        EndpointName: ENDPOINT,
        EndpointConfigName: "dc-updates-t3",
        DeploymentConfig: deploymentConfig,
      }),
    );
    const updating = await describeEndpoint();
    expect(updating.EndpointStatus).toBe("Updating");
    expect(updating.PendingDeploymentSummary?.EndpointConfigName).toBe("dc-updates-t3");
    await expect(
      sageMaker.send(new UpdateEndpointCommand({ EndpointName: ENDPOINT, EndpointConfigName: "dc-updates-t1" })),
    ).rejects.toMatchObject({ name: "ValidationException", message: expect.stringContaining("in-progress endpoint") });

    const traffic = trafficFrom(1);
    const baking = await until(
      (e) => lastStage(e)?.Status === "Baking" && /Step 1 of 2/.test(lastStage(e)?.StatusMessage ?? ""),
    );
    const stages = baking.PendingDeploymentSummary?.ProductionVariants?.[0]?.VariantStatus ?? [];
    expect(stages.map((stage) => stage.Status)).toEqual(["Creating", "ActivatingTraffic", "Baking"]);
    expect(stages[1]?.StatusMessage).toContain("50% of traffic on the new fleet (1 of 2 instances)");
    const bakeStart = traffic.answers.length;
    const canaryPids = await servingPids();
    expect(canaryPids.size).toBe(3);
    await until((e) => /Step 2 of 2/.test(lastStage(e)?.StatusMessage ?? ""));
    const canaryAnswers = new Set(traffic.answers.slice(bakeStart));
    const done = await until((e) => e.EndpointStatus === "InService");
    await traffic.stop();

    expect(traffic.failures).toEqual([]);
    expect(canaryAnswers.has(before)).toBe(true);
    expect(canaryAnswers.size).toBe(2);
    const after = await answer();
    expect(after).not.toBe(before);
    for (let i = 0; i < 10; i++) expect(await answer()).toBe(after);
    expect(done.EndpointConfigName).toBe("dc-updates-t3");
    expect(done.FailureReason).toBeUndefined();
    expect(done.PendingDeploymentSummary).toBeUndefined();
    expect(done.LastDeploymentConfig).toEqual(deploymentConfig);
    expect(done.ProductionVariants?.[0]).toMatchObject({ CurrentInstanceCount: 2, CurrentWeight: 1 });
    expect(await allExit([...oldPids], 10_000)).toBe(true);
  });

  it("rolls back to the serving fleet when a rollback alarm on the endpoint's real metrics goes into ALARM", async () => {
    const alarm = "dc-updates-rollback-4xx";
    await cloudWatch.send(
      new PutMetricAlarmCommand({
        AlarmName: alarm,
        Namespace: "AWS/SageMaker",
        MetricName: "Invocation4XXErrors",
        Dimensions: [
          { Name: "EndpointName", Value: ENDPOINT },
          { Name: "VariantName", Value: "AllTraffic" },
        ],
        Statistic: "Sum",
        Period: 10,
        EvaluationPeriods: 1,
        Threshold: 0,
        ComparisonOperator: "GreaterThanThreshold",
        TreatMissingData: "notBreaching",
      }),
    );
    const serving = await answer();
    const servingPidsBefore = await servingPids();
    // The console's own update, signed as the console (held to the stack's policy), with the alarm named.
    const update = await updateEndpoint(updateClients(), ENDPOINT, {
      change: { temperature: 6 },
      strategy: { kind: "canary", size: { unit: "percent", value: 50 }, waitSeconds: 120 },
      terminationWaitSeconds: 0,
      maxExecutionSeconds: 600,
      alarms: { kind: "existing", names: [alarm] },
    });
    expect(update).toMatchObject({ previousEndpointConfigName: "dc-updates-t3", alarms: [alarm], status: "Updating" });
    expect(update.endpointConfigName).toMatch(/^dc-updates-[0-9a-f]{8}$/);
    await until((e) => lastStage(e)?.Status === "Baking");
    const progress = (await describeForConsole(consoleClients(), ENDPOINT)).deployment;
    expect(progress.pending).toMatchObject({ configName: update.endpointConfigName, newFleetShare: 0.5 });
    expect(progress.pending?.stages.map((stage) => stage.status)).toEqual(["Creating", "ActivatingTraffic", "Baking"]);
    expect(progress.alarms).toMatchObject([{ name: alarm, state: "OK" }]);
    const newPids = [...(await servingPids())].filter((pid) => !servingPidsBefore.has(pid));
    expect(newPids).toHaveLength(1);
    // A request the model refuses (one option): a 4XX the endpoint reports as Invocation4XXErrors.
    const broken = { decision: { ...decision.decision, options: [decision.decision.options[0]] } };
    await expect(invokeEndpoint(runtime, ENDPOINT, broken)).rejects.toMatchObject({ status: 400 });

    const rolledBack = await until((e) => e.EndpointStatus === "InService", 60_000);
    expect(rolledBack.EndpointConfigName).toBe("dc-updates-t3");
    expect(rolledBack.FailureReason).toContain(`the CloudWatch alarm ${alarm} went into ALARM`);
    expect(rolledBack.PendingDeploymentSummary).toBeUndefined();
    expect(rolledBack.LastDeploymentConfig?.AutoRollbackConfiguration?.Alarms).toEqual([{ AlarmName: alarm }]);
    const { MetricAlarms } = await cloudWatch.send(new DescribeAlarmsCommand({ AlarmNames: [alarm] }));
    expect(MetricAlarms?.[0]).toMatchObject({ StateValue: "ALARM" });
    expect(MetricAlarms?.[0]?.StateReason).toContain("1 out of the last 1 datapoints");
    expect(await allExit(newPids, 10_000)).toBe(true);
    for (let i = 0; i < 10; i++) expect(await answer()).toBe(serving);
    const detail = await describeForConsole(consoleClients(), ENDPOINT);
    expect(detail.failureReason).toContain(alarm);
    expect(detail.deployment).toMatchObject({ pending: null, alarms: [{ name: alarm, state: "ALARM" }] });
  });

  it("moves traffic in linear steps under concurrent load without failing a request", async () => {
    const before = await answer();
    const traffic = trafficFrom(4);
    await sageMaker.send(
      new UpdateEndpointCommand({
        EndpointName: ENDPOINT,
        EndpointConfigName: "dc-updates-t1",
        DeploymentConfig: {
          BlueGreenUpdatePolicy: {
            TrafficRoutingConfiguration: {
              Type: "LINEAR",
              LinearStepSize: { Type: "CAPACITY_PERCENT", Value: 50 },
              WaitIntervalInSeconds: 2,
            },
            TerminationWaitInSeconds: 1,
          },
        },
      }),
    );
    const done = await until((e) => e.EndpointStatus === "InService");
    await traffic.stop();
    console.log(`linear update under load: ${traffic.answers.length} requests, ${traffic.failures.length} failed`);
    expect(traffic.failures).toEqual([]);
    expect(traffic.answers.length).toBeGreaterThan(20);
    expect(done.EndpointConfigName).toBe("dc-updates-t1");
    expect(await answer()).not.toBe(before);
  });

  it("replaces the fleet in rolling batches, keeping the instance count, with RetainAllVariantProperties", async () => {
    const traffic = trafficFrom(2);
    await sageMaker.send(
      new UpdateEndpointCommand({
        EndpointName: ENDPOINT,
        EndpointConfigName: "dc-updates-t3",
        RetainAllVariantProperties: true,
        DeploymentConfig: {
          RollingUpdatePolicy: { MaximumBatchSize: { Type: "INSTANCE_COUNT", Value: 1 }, WaitIntervalInSeconds: 1 },
        },
      }),
    );
    const done = await until((e) => e.EndpointStatus === "InService");
    await traffic.stop();
    expect(traffic.failures).toEqual([]);
    expect(done.EndpointConfigName).toBe("dc-updates-t3");
    expect(done.ProductionVariants?.[0]?.CurrentInstanceCount).toBe(2);
    expect((await servingPids()).size).toBe(2);
  });

  it("refuses to change a scaled variant's instance type; the console deregisters, updates and registers again", async () => {
    const clients = consoleClients();
    const scaling = await configureAutoscaling(clients, ENDPOINT, "AllTraffic", {
      minCapacity: 2,
      maxCapacity: 3,
      targetInvocationsPerInstance: 500,
      scaleInDisabled: false,
      scaleInCooldownSeconds: 300,
      scaleOutCooldownSeconds: 60,
      scaleToZero: false,
      targetBacklogPerInstance: 1,
    });
    await createConfig("dc-updates-larger", "3", "ml.c6i.4xlarge");
    const refused = await sageMaker
      .send(new UpdateEndpointCommand({ EndpointName: ENDPOINT, EndpointConfigName: "dc-updates-larger" }))
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: "ValidationException", $metadata: { httpStatusCode: 400 } });
    expect((refused as Error).message).toContain('"[AllTraffic]"');
    expect((refused as Error).message).toContain("DeregisterScalableTarget");

    const reRegistered: Promise<void>[] = [];
    const result = await updateEndpoint(
      { ...clients, store: console_.store },
      ENDPOINT,
      updateRequestSchema.parse({
        change: { instanceType: "ml.c6i.4xlarge" },
        strategy: { kind: "all-at-once", waitSeconds: 0 },
        alarms: { kind: "none" },
      }),
      { pollSeconds: 1, afterUpdate: (task) => reRegistered.push(task) },
    );
    expect(result.autoscalingReRegistered).toEqual(scaling);
    expect(await describeAutoscaling(clients.autoScaling, ENDPOINT, "AllTraffic")).toBeNull();
    await Promise.all(reRegistered);
    const done = await describeEndpoint();
    expect(done).toMatchObject({ EndpointStatus: "InService", EndpointConfigName: result.endpointConfigName });
    expect(done.ProductionVariants?.[0]?.CurrentInstanceCount).toBe(2);
    expect(await describeAutoscaling(clients.autoScaling, ENDPOINT, "AllTraffic")).toEqual(scaling);
  });
});
