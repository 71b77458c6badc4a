import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  ApplicationAutoScalingClient,
  DescribeScalingActivitiesCommand,
  RegisterScalableTargetCommand,
} from "@aws-sdk/client-application-auto-scaling";
import { CloudWatchClient, GetMetricDataCommand } from "@aws-sdk/client-cloudwatch";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import {
  type AsyncInferenceConfig,
  CreateEndpointConfigCommand,
  DescribeEndpointCommand,
  DescribeEndpointConfigCommand,
  SageMakerClient,
  UpdateEndpointCommand,
} from "@aws-sdk/client-sagemaker";
import {
  InvokeEndpointAsyncCommand,
  InvokeEndpointCommand,
  SageMakerRuntimeClient,
} from "@aws-sdk/client-sagemaker-runtime";
import { type ControlPlane, localClientConfig, startControlPlane } from "@decision-console/local-aws";
import {
  type AsyncRequest,
  createEndpoint,
  localAdapterImageUri,
  testExecutionRoleArn,
  testStackFixture,
  writeTinyModel,
} from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleClientsFor } from "../../server/aws/local-console-clients.ts";
import { invokeEndpointAsync } from "../../server/invoke/invoke-async.ts";
import { awaitAsyncOutcome } from "../support/await-async-outcome.ts";

const LOCAL_ARTIFACT_BUCKET = testStackFixture().bucket;

/**
 * Asynchronous Inference end to end on real adapter processes, with the SDK clients signing as the console does:
 * CreateEndpointConfig's AsyncInferenceConfig rules, InvokeEndpointAsync with the input in the local S3, the
 * answers and failures the queue writes there, MaxConcurrentInvocationsPerInstance, the backlog metrics in the
 * local CloudWatch, and the refusals between real-time and asynchronous endpoints.
 */
const ASYNC = "dc-async-tiny";
const REAL_TIME = "dc-realtime-tiny";
const bucket = LOCAL_ARTIFACT_BUCKET;
const PER_INSTANCE = 2;
const decision = (id: string, options = ["billing", "tech"]) => ({
  decision: {
    id,
    state: "Customer: I was charged twice for my subscription this month.",
    question: "Which team should handle this ticket?",
    options: options.map((option) => ({ id: option, description: `The ${option} team` })),
  },
});

let dataDir: string;
let plane: ControlPlane;

function clients(profile: "console" | "admin" = "console") {
  const config = localClientConfig(plane, profile);
  return {
    sageMaker: new SageMakerClient(config),
    runtime: new SageMakerRuntimeClient(config),
    s3: new S3Client({ ...config, forcePathStyle: true }),
    cloudWatch: new CloudWatchClient(config),
  };
}

const asyncConfig = (endpoint: string): AsyncInferenceConfig => ({
  OutputConfig: {
    S3OutputPath: `s3://${bucket}/async/${endpoint}/out/`,
    S3FailurePath: `s3://${bucket}/async/${endpoint}/failed/`,
  },
  ClientConfig: { MaxConcurrentInvocationsPerInstance: PER_INSTANCE },
});

/** The console's own code (the playground's submit and poll) runs on the console's clients. */
const outcome = (inferenceId: string) => awaitAsyncOutcome(consoleClientsFor(plane), ASYNC, inferenceId);

function submit(body: unknown) {
  return invokeEndpointAsync(consoleClientsFor(plane), bucket, ASYNC, body);
}

/** The most requests that ran at the same time on one instance, from the queue's start and finish times. */
function peakPerInstance(requests: AsyncRequest[]): number {
  let peak = 0;
  for (const request of requests) {
    const at = request.startedAt ?? 0;
    const overlapping = requests.filter(
      (other) =>
        other.instanceId === request.instanceId && (other.startedAt ?? 0) <= at && (other.finishedAt ?? 0) > at,
    ).length;
    peak = Math.max(peak, overlapping);
  }
  return peak;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-async-"));
  const gguf = path.join(dataDir, "tiny.gguf");
  writeTinyModel(gguf);
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0 });
  const admin = clients("admin");
  await admin.s3.send(
    new PutObjectCommand({ Bucket: bucket, Key: "models/async-tiny/model.gguf", Body: fs.readFileSync(gguf) }),
  );
  const image = localAdapterImageUri(plane);
  const container = {
    Image: image,
    ModelDataSource: {
      S3DataSource: {
        S3Uri: `s3://${bucket}/models/async-tiny/`,
        S3DataType: "S3Prefix" as const,
        CompressionType: "None" as const,
      },
    },
    Environment: { ADAPTER_THREADS: "1", ADAPTER_PARALLEL: String(PER_INSTANCE), ADAPTER_READING_CACHE: "0" },
  };
  await createEndpoint(admin.sageMaker, ASYNC, container, {
    executionRoleArn: testExecutionRoleArn(),
    asyncInference: asyncConfig(ASYNC),
  });
  await createEndpoint(admin.sageMaker, REAL_TIME, container, { executionRoleArn: testExecutionRoleArn() });
  await Promise.all([plane.endpoints.settled(ASYNC), plane.endpoints.settled(REAL_TIME)]);
});

afterAll(async () => {
  await plane?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("asynchronous endpoints on real adapter processes", { timeout: 120_000 }, () => {
  it("creates the asynchronous endpoint and describes its AsyncInferenceConfig as given", async () => {
    const { sageMaker } = clients("admin");
    const endpoint = await sageMaker.send(new DescribeEndpointCommand({ EndpointName: ASYNC }));
    expect(endpoint.EndpointStatus).toBe("InService");
    const config = await sageMaker.send(new DescribeEndpointConfigCommand({ EndpointConfigName: ASYNC }));
    expect(config.AsyncInferenceConfig).toEqual(asyncConfig(ASYNC));
  });

  it.each([
    [
      "an S3OutputPath that is not an S3 location",
      { OutputConfig: { S3OutputPath: "ftp://bucket/out/" } },
      "Value 'ftp://bucket/out/' at 'asyncInferenceConfig.outputConfig.s3OutputPath' failed to satisfy constraint",
    ],
    [
      "a success topic that is not an SNS topic ARN",
      { OutputConfig: { NotificationConfig: { SuccessTopic: "arn:aws:sqs:us-east-1:000000000000:queue!" } } },
      "at 'asyncInferenceConfig.outputConfig.notificationConfig.successTopic' failed to satisfy constraint",
    ],
    [
      "MaxConcurrentInvocationsPerInstance 0",
      { OutputConfig: {}, ClientConfig: { MaxConcurrentInvocationsPerInstance: 0 } },
      "at 'asyncInferenceConfig.clientConfig.maxConcurrentInvocationsPerInstance' failed to satisfy constraint: Member must have value greater than or equal to 1",
    ],
  ])("refuses an AsyncInferenceConfig with %s", async (_label, config, message) => {
    const { sageMaker } = clients("admin");
    const create = sageMaker.send(
      new CreateEndpointConfigCommand({
        EndpointConfigName: "dc-async-bad",
        ProductionVariants: [
          { VariantName: "AllTraffic", ModelName: ASYNC, InstanceType: "ml.c6i.large", InitialInstanceCount: 1 },
        ],
        AsyncInferenceConfig: config as AsyncInferenceConfig,
      }),
    );
    await expect(create).rejects.toMatchObject({ name: "ValidationException", $metadata: { httpStatusCode: 400 } });
    await expect(create).rejects.toThrow(message);
  });

  it("answers InvokeEndpointAsync at once and writes the adapter's decision to the output location", async () => {
    const queued = await submit(decision("first"));
    expect(queued.inputLocation).toMatch(new RegExp(`^s3://${bucket}/async/${ASYNC}/in/[0-9a-f-]{36}\\.json$`));
    expect(queued.inferenceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(queued.outputLocation).toBe(`s3://${bucket}/async/${ASYNC}/out/${queued.inferenceId}.out`);
    expect(queued.failureLocation).toBe(`s3://${bucket}/async/${ASYNC}/failed/${queued.inferenceId}-error.out`);
    const result = await outcome(queued.inferenceId);
    expect(result.status).toBe("completed");
    const answer = (result.body as { result: { option_ids: string[]; probabilities: number[] } }).result;
    expect(answer.option_ids).toEqual(["billing", "tech"]);
    expect(answer.probabilities.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
  });

  it("writes the adapter's 400 to the failure location and still answers the requests behind it", async () => {
    const bad = await submit(decision("bad", ["only-one"]));
    const good = await submit(decision("good"));
    const failed = await outcome(bad.inferenceId);
    expect(failed.status).toBe("failed");
    expect(JSON.stringify(failed.body)).toContain("options");
    expect((await outcome(good.inferenceId)).status).toBe("completed");
  });

  it("runs at most MaxConcurrentInvocationsPerInstance at once and publishes the backlog to CloudWatch", async () => {
    const queued = await Promise.all(Array.from({ length: 8 }, (_, i) => submit(decision(`load-${i}`))));
    plane.backlogMetrics.publish();
    const outcomes = await Promise.all(queued.map((q) => outcome(q.inferenceId)));
    expect(outcomes.map((o) => o.status)).toEqual(Array(8).fill("completed"));
    const ids = new Set(queued.map((q) => q.inferenceId));
    const ran = plane.asyncRequests.withStatus(ASYNC, "completed").filter((r) => ids.has(r.inferenceId));
    expect(ran).toHaveLength(8);
    expect(peakPerInstance(ran)).toBeLessThanOrEqual(PER_INSTANCE);
    plane.backlogMetrics.publish();

    const { cloudWatch } = clients();
    const now = new Date(Date.now() + 1000);
    const query = (id: string, name: string, stat: string) => ({
      Id: id,
      MetricStat: {
        Metric: { Namespace: "AWS/SageMaker", MetricName: name, Dimensions: [{ Name: "EndpointName", Value: ASYNC }] },
        Period: 60,
        Stat: stat,
      },
    });
    const data = await cloudWatch.send(
      new GetMetricDataCommand({
        StartTime: new Date(now.getTime() - 600_000),
        EndTime: now,
        MetricDataQueries: [
          query("backlog", "ApproximateBacklogSize", "Maximum"),
          query("perinstance", "ApproximateBacklogSizePerInstance", "Minimum"),
          query("nocapacity", "HasBacklogWithoutCapacity", "Maximum"),
        ],
      }),
    );
    const values = Object.fromEntries((data.MetricDataResults ?? []).map((r) => [r.Id, r.Values ?? []]));
    expect(Math.max(...(values.backlog ?? []))).toBeGreaterThanOrEqual(1);
    expect(Math.min(...(values.perinstance ?? []))).toBe(0);
    expect(values.nocapacity).toEqual([0]);
  });

  it("refuses InvokeEndpoint on an asynchronous endpoint and InvokeEndpointAsync on a real-time one", async () => {
    const { runtime } = clients();
    await expect(
      runtime.send(
        new InvokeEndpointCommand({
          EndpointName: ASYNC,
          Body: JSON.stringify(decision("sync")),
          ContentType: "application/json",
        }),
      ),
    ).rejects.toMatchObject({ name: "ValidationError", message: expect.stringContaining("use InvokeEndpointAsync") });
    await expect(
      runtime.send(
        new InvokeEndpointAsyncCommand({
          EndpointName: REAL_TIME,
          InputLocation: `s3://${bucket}/async/${REAL_TIME}/in/x.json`,
        }),
      ),
    ).rejects.toMatchObject({ name: "ValidationError", message: expect.stringContaining("use InvokeEndpoint.") });
  });

  it("refuses a request with neither InputLocation nor Body, and one with both", async () => {
    const { runtime } = clients();
    await expect(runtime.send(new InvokeEndpointAsyncCommand({ EndpointName: ASYNC }))).rejects.toMatchObject({
      name: "ValidationError",
      message: "Body and InputLocation are mutually exclusive. Provide exactly one of them.",
      $metadata: { httpStatusCode: 400 },
    });
    await expect(
      runtime.send(
        new InvokeEndpointAsyncCommand({
          EndpointName: ASYNC,
          InputLocation: `s3://${bucket}/async/${ASYNC}/in/first.json`,
          Body: new TextEncoder().encode("{}"),
        }),
      ),
    ).rejects.toMatchObject({ name: "ValidationError", $metadata: { httpStatusCode: 400 } });
  });

  it("registers MinCapacity 0 for the asynchronous endpoint's variant and refuses it for a real-time one", async () => {
    const autoScaling = new ApplicationAutoScalingClient(localClientConfig(plane, "admin"));
    const register = (endpoint: string) =>
      autoScaling.send(
        new RegisterScalableTargetCommand({
          ServiceNamespace: "sagemaker",
          ResourceId: `endpoint/${endpoint}/variant/AllTraffic`,
          ScalableDimension: "sagemaker:variant:DesiredInstanceCount",
          MinCapacity: 0,
          MaxCapacity: 2,
        }),
      );
    await expect(register(ASYNC)).resolves.toMatchObject({ ScalableTargetARN: expect.any(String) });
    await expect(register(REAL_TIME)).rejects.toMatchObject({
      name: "ValidationException",
      message: "MinCapacity 0 is not allowed for a real-time endpoint variant; the minimum is 1.",
    });
  });

  it("moves the count into newly registered bounds and records each move as a scaling activity", async () => {
    const autoScaling = new ApplicationAutoScalingClient(localClientConfig(plane, "admin"));
    const target = {
      ServiceNamespace: "sagemaker",
      ResourceId: `endpoint/${ASYNC}/variant/AllTraffic`,
      ScalableDimension: "sagemaker:variant:DesiredInstanceCount",
    } as const;
    const register = async (MinCapacity: number, MaxCapacity: number) => {
      await autoScaling.send(new RegisterScalableTargetCommand({ ...target, MinCapacity, MaxCapacity }));
      await plane.endpoints.settled(ASYNC);
    };
    await register(0, 0);
    await register(1, 2);
    await register(0, 2);
    const { ScalingActivities } = await autoScaling.send(new DescribeScalingActivitiesCommand(target));
    expect(ScalingActivities?.map((a) => [a.Description, a.Cause, a.StatusCode, a.StatusMessage])).toEqual([
      [
        "Setting desired instance count to 1.",
        "minimum capacity was set to 1",
        "Successful",
        "Successfully set desired instance count to 1. Change successfully fulfilled by sagemaker.",
      ],
      [
        "Setting desired instance count to 0.",
        "maximum capacity was set to 0",
        "Successful",
        "Successfully set desired instance count to 0. Change successfully fulfilled by sagemaker.",
      ],
    ]);
    const paged = await autoScaling.send(new DescribeScalingActivitiesCommand({ ...target, MaxResults: 1 }));
    expect(paged.ScalingActivities?.map((a) => a.ActivityId)).toEqual([ScalingActivities?.[0]?.ActivityId]);
    const rest = await autoScaling.send(
      new DescribeScalingActivitiesCommand({ ...target, MaxResults: 1, NextToken: paged.NextToken }),
    );
    expect([rest.ScalingActivities?.map((a) => a.ActivityId), rest.NextToken]).toEqual([
      [ScalingActivities?.[1]?.ActivityId],
      undefined,
    ]);
  });

  it("refuses an inline Body over 128,000 bytes and queues one within the limit", async () => {
    const { runtime } = clients();
    const send = (bytes: number) =>
      runtime.send(
        new InvokeEndpointAsyncCommand({
          EndpointName: ASYNC,
          ContentType: "application/json",
          Body: new TextEncoder().encode(JSON.stringify(decision("inline")).padEnd(bytes, " ")),
        }),
      );
    await expect(send(128_001)).rejects.toMatchObject({
      name: "ValidationError",
      message: expect.stringContaining("Body can be up to 128000 bytes"),
      $metadata: { httpStatusCode: 400 },
    });
    const queued = await send(128_000);
    expect((await outcome(queued.InferenceId!)).status).toBe("completed");
  });

  it("does not let the console write requests outside async/<endpoint>/in/", async () => {
    const { s3 } = clients();
    await expect(
      s3.send(new PutObjectCommand({ Bucket: bucket, Key: `async/${ASYNC}/out/forged.out`, Body: "{}" })),
    ).rejects.toMatchObject({ name: "AccessDenied" });
  });

  it("lets an update drain the requests running on the old instance before stopping it", async () => {
    const { sageMaker } = clients("admin");
    await sageMaker.send(
      new CreateEndpointConfigCommand({
        EndpointConfigName: `${ASYNC}-v2`,
        ProductionVariants: [
          { VariantName: "AllTraffic", ModelName: ASYNC, InstanceType: "ml.c6i.2xlarge", InitialInstanceCount: 1 },
        ],
        AsyncInferenceConfig: asyncConfig(ASYNC),
      }),
    );
    const oldInstances = new Set(plane.endpoints.healthyInstances(ASYNC).map((instance) => instance.instanceId));
    expect(oldInstances.size).toBe(1);
    await sageMaker.send(new UpdateEndpointCommand({ EndpointName: ASYNC, EndpointConfigName: `${ASYNC}-v2` }));
    // A backlog the whole update long (of decisions slow to score), so the old instance is working when the new
    // fleet takes over.
    const many = Array.from({ length: 32 }, (_, i) => `team-${i}`);
    const sent: string[] = [];
    let updating = true;
    const load = (async () => {
      while (updating) {
        if (plane.asyncRequests.withStatus(ASYNC, "queued").length >= 2 * PER_INSTANCE) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          continue;
        }
        const batch = Array.from({ length: 2 * PER_INSTANCE }, (_, i) => decision(`update-${sent.length}-${i}`, many));
        for (const queued of await Promise.all(batch.map(submit))) sent.push(queued.inferenceId);
      }
    })();
    const deadline = Date.now() + 90_000;
    let described = await clients().sageMaker.send(new DescribeEndpointCommand({ EndpointName: ASYNC }));
    while (described.EndpointConfigName !== `${ASYNC}-v2` || described.EndpointStatus !== "InService") {
      if (Date.now() > deadline) throw new Error(`the update did not finish: ${JSON.stringify(described)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      described = await clients().sageMaker.send(new DescribeEndpointCommand({ EndpointName: ASYNC }));
    }
    updating = false;
    await load;
    const outcomes = await Promise.all(sent.map((id) => outcome(id)));
    // Before the old instance counted its asynchronous requests in flight, the update stopped it under them.
    expect(outcomes.filter((seen) => seen.status !== "completed")).toEqual([]);

    const ids = new Set(sent);
    const ran = plane.asyncRequests.withStatus(ASYNC, "completed", 10_000).filter((r) => ids.has(r.inferenceId));
    // The new fleet takes work once it serves the endpoint: a request the old instance was still running then was
    // in flight while the deployment retired the instance, and it was answered.
    const onNew = ran.filter((r) => !oldInstances.has(r.instanceId ?? ""));
    const takeover = Math.min(...onNew.map((r) => r.startedAt ?? Number.POSITIVE_INFINITY));
    const drained = ran.filter(
      (r) => oldInstances.has(r.instanceId ?? "") && (r.startedAt ?? 0) < takeover && (r.finishedAt ?? 0) > takeover,
    );
    expect(onNew.length).toBeGreaterThan(0);
    expect(drained.length).toBeGreaterThan(0);
  });
});
