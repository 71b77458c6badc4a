import { ApplicationAutoScalingClient } from "@aws-sdk/client-application-auto-scaling";
import { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import {
  CreateEndpointConfigCommand,
  CreateModelCommand,
  DescribeEndpointCommand,
  DescribeEndpointConfigCommand,
  DescribeModelCommand,
  DescribeModelPackageCommand,
  ListTagsCommand,
  SageMakerClient,
  UpdateEndpointCommand,
} from "@aws-sdk/client-sagemaker";
import { mockClient } from "aws-sdk-client-mock";
import { beforeEach, expect, it, vi } from "vitest";
import { promoteShadowRequestSchema, shadowTestRequestSchema } from "../../contract/endpoints/shadow-test.ts";
import { describedCpuConfig, describedEndpoint, describedModel } from "../../tests/support/endpoints/fixtures.ts";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import { evaluationMetadata } from "../models/version-metadata.ts";
import { newestEvaluationLink } from "./evaluation-link.ts";
import {
  finishShadowPromotion,
  promoteShadow,
  shadowPromotionState,
  startShadowTest,
  waitingPromotions,
} from "./shadow-test.ts";

/**
 * What the console stores of a shadow test and of a promotion waiting to start its update, on each store dialect;
 * shadow-test.model.test.ts runs the whole test against the local control plane.
 */
const sageMaker = mockClient(SageMakerClient);
const aws = {
  sageMaker: new SageMakerClient({ region: "us-east-1" }),
  cloudWatch: new CloudWatchClient({ region: "us-east-1" }),
  autoScaling: new ApplicationAutoScalingClient({ region: "us-east-1" }),
};
const ENDPOINT = "demo";
const request = shadowTestRequestSchema.parse({ change: { temperature: 0.7 }, samplingPercentage: 50 });
const promotion = promoteShadowRequestSchema.parse({
  strategy: { kind: "all-at-once", waitSeconds: 0 },
  alarms: { kind: "none" },
});
const options = { actor: "ops", resourceNamePrefix: null };

const servingOn = (EndpointConfigName: string, EndpointStatus: "InService" | "Updating" = "InService") =>
  sageMaker.on(DescribeEndpointCommand).resolves(describedEndpoint({ EndpointConfigName, EndpointStatus }));

beforeEach(() => {
  sageMaker.reset();
  servingOn("demo");
  sageMaker.on(DescribeEndpointConfigCommand).resolves(describedCpuConfig());
  sageMaker.on(DescribeModelCommand).resolves(describedModel());
  sageMaker.on(ListTagsCommand).resolves({ Tags: [] });
  sageMaker.on(CreateModelCommand).resolves({});
  sageMaker.on(CreateEndpointConfigCommand).resolves({});
  sageMaker.on(UpdateEndpointCommand).resolves({});
});

describeOnStores("shadow tests in the store", (current) => {
  it("records the test it started, replacing what an earlier test of the endpoint left", async () => {
    const { store } = current();
    await store
      .insertInto("shadow_tests")
      .values({
        endpoint_name: ENDPOINT,
        shadow_config: "demo-old-shadow",
        previous_config: "demo-older",
        change: "{}",
        sampling_percentage: 10,
        started_at: "2026-01-01T00:00:00.000Z",
        started_by: "someone",
      })
      .execute();
    const started = await startShadowTest(aws.sageMaker, store, ENDPOINT, request, options);
    const tests = await store.selectFrom("shadow_tests").selectAll().execute();
    expect(tests).toEqual([
      {
        endpoint_name: ENDPOINT,
        shadow_config: started.endpointConfigName,
        previous_config: "demo",
        change: JSON.stringify({ temperature: 0.7 }),
        sampling_percentage: 50,
        started_at: expect.not.stringMatching(/^2026-01-01/),
        started_by: "ops",
      },
    ]);
  });

  it("stores a promotion in place of the test and refuses a new test while it waits", async () => {
    const { store } = current();
    const started = await startShadowTest(aws.sageMaker, store, ENDPOINT, request, options);
    servingOn(started.endpointConfigName);
    const promoted = await promoteShadow(aws.sageMaker, store, ENDPOINT, promotion, { actor: "alice" });
    expect(promoted).toMatchObject({ endpointConfigName: "demo", followedBy: { change: { temperature: 0.7 } } });
    expect(await store.selectFrom("shadow_tests").selectAll().execute()).toEqual([]);
    expect(
      await store
        .selectFrom("shadow_promotions")
        .select(["endpoint_name", "previous_config", "requested_by", "attempts", "last_error"])
        .execute(),
    ).toEqual([
      { endpoint_name: ENDPOINT, previous_config: "demo", requested_by: "alice", attempts: 0, last_error: null },
    ]);
    expect(await waitingPromotions(store)).toEqual([ENDPOINT]);
    servingOn("demo");
    await expect(startShadowTest(aws.sageMaker, store, ENDPOINT, request, options)).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("shadow promotion waiting"),
    });
  });

  it("refuses a canary that a one-instance endpoint cannot run, before the test ends", async () => {
    const { store } = current();
    const started = await startShadowTest(aws.sageMaker, store, ENDPOINT, request, options);
    servingOn(started.endpointConfigName);
    const updates = sageMaker.commandCalls(UpdateEndpointCommand).length;
    const canary = promoteShadowRequestSchema.parse({
      strategy: { kind: "canary", size: { unit: "instances", value: 1 }, waitSeconds: 60 },
      alarms: { kind: "none" },
    });
    await expect(promoteShadow(aws.sageMaker, store, ENDPOINT, canary, { actor: "alice" })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("CanarySize (1 instance) must be less than or equal to 50%"),
    });
    expect(sageMaker.commandCalls(UpdateEndpointCommand)).toHaveLength(updates);
    expect(await store.selectFrom("shadow_tests").select("endpoint_name").execute()).toEqual([
      { endpoint_name: ENDPOINT },
    ]);
    expect(await waitingPromotions(store)).toEqual([]);
  });

  it("counts each try at a promotion, keeps its last error, and gives it up once the endpoint moved on", async () => {
    const { store } = current();
    const started = await startShadowTest(aws.sageMaker, store, ENDPOINT, request, options);
    servingOn(started.endpointConfigName);
    await promoteShadow(aws.sageMaker, store, ENDPOINT, promotion, { actor: "alice" });
    let looks = 0;
    sageMaker.on(DescribeEndpointCommand).callsFake(() => {
      if (looks++ === 0) throw Object.assign(new Error("Rate exceeded"), { name: "ThrottlingException" });
      return describedEndpoint({ EndpointConfigName: "demo-updated-elsewhere" });
    });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await finishShadowPromotion({ aws, store, scope: { prefix: null } }, ENDPOINT, { pollSeconds: 0 });
      const gaveUp = logged.mock.calls.map(([line]) => JSON.parse(String(line))).filter((line) => line.endpoint);
      expect(gaveUp).toEqual([
        expect.objectContaining({
          requestedBy: "alice",
          attempts: 1,
          reason: expect.stringContaining("updated since"),
          lastError: expect.stringContaining("Rate exceeded"),
        }),
      ]);
    } finally {
      logged.mockRestore();
    }
    expect(await waitingPromotions(store)).toEqual([]);
    expect(await store.selectFrom("shadow_promotions").selectAll().execute()).toEqual([]);
    expect(await shadowPromotionState(store, ENDPOINT)).toEqual({
      waiting: null,
      lastFailure: { at: expect.any(String), requestedBy: "alice", reason: expect.stringContaining("updated since") },
    });
  });

  it("makes the evaluation attached to a promoted registry version the endpoint's, as its promoter's", async () => {
    const { store } = current();
    const arn = "arn:aws:sagemaker:us-east-1:123456789012:model-package/dc-router/2";
    sageMaker.on(DescribeModelPackageCommand).resolves({
      ModelPackageArn: arn,
      ModelPackageGroupName: "dc-router",
      ModelPackageVersion: 2,
      ModelApprovalStatus: "Approved",
      CustomerMetadataProperties: evaluationMetadata({
        runId: "run-candidate",
        target: "dc-candidate",
        datasetName: "tickets",
        datasetSha256: "0".repeat(64),
        items: 231,
        accuracy: 0.9,
        brier: 0.1,
        ece: 0.05,
        p50Ms: 10,
        p95Ms: 20,
        errors: 0,
        reportUrl: "s3://bucket/reports/run-candidate.json",
        attachedAt: "2026-12-01T00:00:00.000Z",
      }),
    });
    const versionTest = shadowTestRequestSchema.parse({ change: { modelVersionArn: arn } });
    const started = await startShadowTest(aws.sageMaker, store, ENDPOINT, versionTest, options);
    servingOn(started.endpointConfigName);
    await promoteShadow(aws.sageMaker, store, ENDPOINT, promotion, { actor: "alice" });
    expect(await newestEvaluationLink(store, ENDPOINT)).toBeNull();
    servingOn(started.previousEndpointConfigName);
    await finishShadowPromotion({ aws, store, scope: { prefix: null } }, ENDPOINT, { pollSeconds: 0 });
    // The test's start, its end, and the candidate's update.
    expect(sageMaker.commandCalls(UpdateEndpointCommand)).toHaveLength(3);
    expect(await newestEvaluationLink(store, ENDPOINT)).toEqual({
      endpointName: ENDPOINT,
      runId: "run-candidate",
      why: "promoted",
      by: "alice",
      at: expect.any(String),
    });
  });

  it("takes up waiting promotions oldest first", async () => {
    const { store } = current();
    const waiting = (endpoint_name: string, requested_at: string) => ({
      endpoint_name,
      update_request: "{}",
      previous_config: endpoint_name,
      requested_by: "ops",
      requested_at,
    });
    await store
      .insertInto("shadow_promotions")
      .values([
        waiting("b", "2026-12-01T10:00:01.000Z"),
        waiting("c", "2026-12-01T09:59:59.000Z"),
        waiting("a", "2026-12-01T10:00:01.000Z"),
      ])
      .execute();
    expect(await waitingPromotions(store)).toEqual(["c", "a", "b"]);
  });
});
