import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  ApplicationAutoScalingClient,
  DeleteScalingPolicyCommand,
  DeregisterScalableTargetCommand,
  DescribeScalableTargetsCommand,
  DescribeScalingPoliciesCommand,
  PutScalingPolicyCommand,
  type PutScalingPolicyCommandInput,
  RegisterScalableTargetCommand,
} from "@aws-sdk/client-application-auto-scaling";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { DescribeEndpointCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import { type ControlPlane, localClientConfig, startControlPlane } from "@decision-console/local-aws";
import {
  createEndpoint,
  localAdapterImageUri,
  testExecutionRoleArn,
  testStackFixture,
  writeTinyModel,
} from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { autoscalingRequestSchema } from "../../contract/endpoints/autoscaling.ts";
import { CONSOLE_SCALABLE_TARGET_TAG } from "../../contract/stack/console-contract.ts";
import { putEndpointAutoscaling } from "../../server/autoscaling/endpoint-autoscaling.ts";
import { consoleClientsFor } from "../../server/aws/local-console-clients.ts";

const LOCAL_ARTIFACT_BUCKET = testStackFixture().bucket;

/**
 * The console (prefix dc-) against another team's running endpoint, whose variant that team registered as a
 * scalable target with the console's own tag (as a second console deployment would): Application Auto Scaling
 * validates that the caller may act on the endpoint itself, so every change is refused and nothing moves. The
 * console's own endpoint is still its to scale.
 */
const THEIRS = "team-b-prod";
const OURS = "dc-own";
const targetOf = (endpoint: string) =>
  ({
    ServiceNamespace: "sagemaker",
    ResourceId: `endpoint/${endpoint}/variant/AllTraffic`,
    ScalableDimension: "sagemaker:variant:DesiredInstanceCount",
  }) as const;
const tag = { [CONSOLE_SCALABLE_TARGET_TAG.key]: CONSOLE_SCALABLE_TARGET_TAG.value };
const stepPolicy: Pick<PutScalingPolicyCommandInput, "PolicyName" | "PolicyType" | "StepScalingPolicyConfiguration"> = {
  PolicyName: "scale-out",
  PolicyType: "StepScaling",
  StepScalingPolicyConfiguration: {
    AdjustmentType: "ChangeInCapacity",
    StepAdjustments: [{ MetricIntervalLowerBound: 0, ScalingAdjustment: 1 }],
  },
};

let dataDir: string;
let plane: ControlPlane;
const admin = () => localClientConfig(plane, "admin");
const asConsole = () => new ApplicationAutoScalingClient(localClientConfig(plane, "console"));

async function instances(endpoint: string) {
  const described = await new SageMakerClient(admin()).send(new DescribeEndpointCommand({ EndpointName: endpoint }));
  const [variant] = described.ProductionVariants ?? [];
  return {
    status: described.EndpointStatus,
    current: variant?.CurrentInstanceCount,
    desired: variant?.DesiredInstanceCount,
  };
}

async function registered(endpoint: string) {
  const autoScaling = new ApplicationAutoScalingClient(admin());
  const { ScalableTargets = [] } = await autoScaling.send(
    new DescribeScalableTargetsCommand({ ServiceNamespace: "sagemaker", ResourceIds: [targetOf(endpoint).ResourceId] }),
  );
  const { ScalingPolicies = [] } = await autoScaling.send(
    new DescribeScalingPoliciesCommand({ ServiceNamespace: "sagemaker", ResourceId: targetOf(endpoint).ResourceId }),
  );
  return {
    bounds: ScalableTargets.map((t) => [t.MinCapacity, t.MaxCapacity]),
    roles: ScalableTargets.map((t) => t.RoleARN),
    policies: ScalingPolicies.map((p) => p.PolicyName),
  };
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-cross-team-"));
  const gguf = path.join(dataDir, "tiny.gguf");
  writeTinyModel(gguf);
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0 });
  const config = admin();
  const s3 = new S3Client({ ...config, forcePathStyle: true });
  const key = "models/cross-team/model.gguf";
  await s3.send(new PutObjectCommand({ Bucket: LOCAL_ARTIFACT_BUCKET, Key: key, Body: fs.readFileSync(gguf) }));
  const container = {
    Image: localAdapterImageUri(plane),
    ModelDataSource: {
      S3DataSource: {
        S3Uri: `s3://${LOCAL_ARTIFACT_BUCKET}/models/cross-team/`,
        S3DataType: "S3Prefix",
        CompressionType: "None",
      },
    },
    Environment: { ADAPTER_THREADS: "1", ADAPTER_READING_CACHE: "0" },
  } as const;
  const sageMaker = new SageMakerClient(config);
  await createEndpoint(sageMaker, THEIRS, container, { executionRoleArn: testExecutionRoleArn() });
  await createEndpoint(sageMaker, OURS, container, { executionRoleArn: testExecutionRoleArn() });
  await plane.endpoints.settled(THEIRS);
  await plane.endpoints.settled(OURS);
}, 180_000);

afterAll(async () => {
  await plane?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the console and another team's scalable target", { timeout: 120_000 }, () => {
  it("cannot register, adopt, re-scale, deregister or change the policies of a target outside its prefix", async () => {
    expect(await instances(THEIRS)).toEqual({ status: "InService", current: 1, desired: 1 });
    const autoScaling = asConsole();
    const theirs = targetOf(THEIRS);
    const send = (command: unknown) =>
      // biome-ignore lint/suspicious/noExplicitAny: the SDK's several command types through one call
      autoScaling.send(command as any).then(
        () => "accepted",
        (error: Error) => error,
      );
    const refusals: unknown[] = [];
    // A first registration, with bounds that would scale the endpoint from 1 to 2 instances.
    refusals.push(
      await send(new RegisterScalableTargetCommand({ ...theirs, MinCapacity: 2, MaxCapacity: 2, Tags: tag })),
    );

    // Team B's own registration, tagged as a console registers (another deployment of it), with a step policy.
    const teamB = new ApplicationAutoScalingClient(admin());
    await teamB.send(new RegisterScalableTargetCommand({ ...theirs, MinCapacity: 1, MaxCapacity: 1, Tags: tag }));
    await teamB.send(new PutScalingPolicyCommand({ ...theirs, ...stepPolicy }));
    const attempts = [
      // Adopting it with bounds that would scale the endpoint in and out.
      new RegisterScalableTargetCommand({ ...theirs, MinCapacity: 2, MaxCapacity: 2, Tags: tag }),
      new PutScalingPolicyCommand({ ...theirs, ...stepPolicy, PolicyName: "console-policy" }),
      new DeleteScalingPolicyCommand({ ...theirs, PolicyName: stepPolicy.PolicyName }),
      new DeregisterScalableTargetCommand(theirs),
    ];
    for (const command of attempts) refusals.push(await send(command));
    const refused = refusals.filter((r) => r !== "accepted").length;
    console.log(JSON.stringify({ crossTeamRequests: refusals.length, refused }));
    expect(refused).toBe(refusals.length);
    for (const refusal of refusals) {
      expect(refusal).toMatchObject({
        name: "ValidationException",
        message: expect.stringMatching(
          /is not authorized to perform: sagemaker:DescribeEndpoint on resource: arn:aws:sagemaker:us-east-1:\d+:endpoint\/team-b-prod/,
        ),
      });
    }
    expect((refusals[0] as Error).message).toContain("sagemaker:UpdateEndpointWeightsAndCapacities");
    expect(await registered(THEIRS)).toMatchObject({ bounds: [[1, 1]], policies: [stepPolicy.PolicyName] });
    await plane.endpoints.settled(THEIRS);
    expect(await instances(THEIRS)).toEqual({ status: "InService", current: 1, desired: 1 });
  });

  it("still registers, re-registers, puts and removes policies on and deregisters its own endpoint's target", async () => {
    const autoScaling = asConsole();
    const ours = targetOf(OURS);
    await autoScaling.send(new RegisterScalableTargetCommand({ ...ours, MinCapacity: 1, MaxCapacity: 2, Tags: tag }));
    await autoScaling.send(new RegisterScalableTargetCommand({ ...ours, MinCapacity: 1, MaxCapacity: 3, Tags: tag }));
    await autoScaling.send(new PutScalingPolicyCommand({ ...ours, ...stepPolicy }));
    // Registered with no RoleARN: DescribeScalableTargets answers the service-linked role, as the model requires a RoleARN.
    expect(await registered(OURS)).toEqual({
      bounds: [[1, 3]],
      roles: [
        "arn:aws:iam::000000000000:role/aws-service-role/sagemaker.application-autoscaling.amazonaws.com/AWSServiceRoleForApplicationAutoScaling_SageMakerEndpoint",
      ],
      policies: [stepPolicy.PolicyName],
    });
    await autoScaling.send(new DeleteScalingPolicyCommand({ ...ours, PolicyName: stepPolicy.PolicyName }));
    await autoScaling.send(new DeregisterScalableTargetCommand(ours));
    expect(await registered(OURS)).toEqual({ bounds: [], roles: [], policies: [] });
  });

  it("through the console's own code: refuses another team's endpoint and scale to zero of a real-time one, leaving nothing", async () => {
    const clients = consoleClientsFor(plane);
    const before = await registered(THEIRS);
    const request = autoscalingRequestSchema.parse({
      minCapacity: 2,
      maxCapacity: 2,
      targetInvocationsPerInstance: 60,
    });
    await expect(putEndpointAutoscaling(clients, THEIRS, "AllTraffic", request)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("sagemaker:DescribeEndpoint on resource"),
    });
    expect(await registered(THEIRS)).toEqual(before);
    await plane.endpoints.settled(THEIRS);
    expect(await instances(THEIRS)).toEqual({ status: "InService", current: 1, desired: 1 });

    const toZero = autoscalingRequestSchema.parse({ minCapacity: 0, maxCapacity: 1, scaleToZero: true });
    await expect(putEndpointAutoscaling(clients, OURS, "AllTraffic", toZero)).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/^scaleToZero: "dc-own" is a real-time endpoint\./),
    });
    expect(await registered(OURS)).toEqual({ bounds: [], roles: [], policies: [] });
  });
});
