import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  CreateEndpointCommand,
  CreateEndpointConfigCommand,
  CreateModelCommand,
  DescribeEndpointCommand,
  DescribeEndpointConfigCommand,
  type ProductionVariant,
  SageMakerClient,
  UpdateEndpointCommand,
  UpdateEndpointWeightsAndCapacitiesCommand,
} from "@aws-sdk/client-sagemaker";
import { InvokeEndpointCommand, SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ControlPlane, startControlPlane } from "../control-plane.ts";
import { LOCAL_DATABASE_FILE } from "../database.ts";
import { MetricsStore } from "../metrics-store.ts";
import { localClientConfig } from "../stack.ts";
import { localAdapterImageUri } from "../test-support/adapter-image.ts";
import { publishTinyModelArchive } from "../test-support/batch-model.ts";
import { routeDecision } from "../test-support/route-decision.ts";
import { testExecutionRoleArn, testStackFixture } from "../test-support/stack-fixture.ts";

/**
 * Shadow variants on the local control plane, with the tiny model: the caller gets the production variant's answer
 * (and only it), the shadow variant gets its share of copies, each variant's invocations are captured under its
 * own folder and counted in its own metrics, and a shadow that answers errors changes nothing for the caller.
 */
let dataDir: string;
let plane: ControlPlane;
let sageMaker: SageMakerClient;
let runtime: SageMakerRuntimeClient;
let metrics: MetricsStore;
let metricsDb: Database.Database;

const body = JSON.stringify(routeDecision);
const capturePrefix = "data-capture";

async function model(name: string, environment: Record<string, string>, modelDataUrl: string) {
  await sageMaker.send(
    new CreateModelCommand({
      ModelName: name,
      ExecutionRoleArn: testExecutionRoleArn(),
      PrimaryContainer: {
        Image: localAdapterImageUri(plane),
        ModelDataUrl: modelDataUrl,
        Environment: { ADAPTER_THREADS: "1", ...environment },
      },
    }),
  );
}

const variant = (name: string, modelName: string, weight: number): ProductionVariant => ({
  VariantName: name,
  ModelName: modelName,
  InstanceType: "ml.c6i.2xlarge",
  InitialInstanceCount: 1,
  InitialVariantWeight: weight,
});

async function endpoint(name: string, production: ProductionVariant, shadow?: ProductionVariant) {
  await sageMaker.send(
    new CreateEndpointConfigCommand({
      EndpointConfigName: name,
      ProductionVariants: [production],
      ShadowProductionVariants: shadow ? [shadow] : undefined,
      DataCaptureConfig: {
        EnableCapture: true,
        InitialSamplingPercentage: 100,
        DestinationS3Uri: `s3://${plane.bucket}/${capturePrefix}`,
        CaptureOptions: [{ CaptureMode: "InputAndOutput" }],
        CaptureContentTypeHeader: { JsonContentTypes: ["application/json"] },
      },
    }),
  );
  await sageMaker.send(new CreateEndpointCommand({ EndpointName: name, EndpointConfigName: name }));
}

/** What a model decided, without the timings and cache counts that differ from one answer to the next. */
function decisionOf(answer: string) {
  const { option_ids, probabilities, option_logits, temperature } = JSON.parse(answer).result;
  return { option_ids, probabilities, option_logits, temperature };
}

async function invoke(name: string) {
  const answer = await runtime.send(
    new InvokeEndpointCommand({ EndpointName: name, ContentType: "application/json", Body: body }),
  );
  return { variant: answer.InvokedProductionVariant, decision: decisionOf(Buffer.from(answer.Body ?? []).toString()) };
}

/** The recorded invocations of one variant (what its CloudWatch metrics are computed from). */
const samplesOf = (name: string, variantName: string) => metrics.samples(name, variantName, 0, Date.now() + 1000);

/** Waits (bounded) until the shadow's copies are all answered: its count stops moving and nothing is in flight. */
async function shadowSettled(name: string, variantName: string, expected: (count: number) => boolean) {
  const deadline = Date.now() + 60_000;
  let last = -1;
  while (Date.now() < deadline) {
    const count = samplesOf(name, variantName).length;
    if (count === last && expected(count)) return;
    last = count;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The captured records of one variant of an endpoint. */
async function captured(name: string, variantName: string) {
  await plane.capture.flush();
  const objects = plane.objects.list(plane.bucket, `${capturePrefix}/${name}/${variantName}/`, "", 10_000);
  return objects.flatMap((object) =>
    fs
      .readFileSync(plane.objects.getObject(plane.bucket, object.key).file, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line)),
  );
}

let productionAlone: ReturnType<typeof decisionOf>;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-shadow-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0 });
  sageMaker = new SageMakerClient(localClientConfig(plane));
  runtime = new SageMakerRuntimeClient(localClientConfig(plane));
  metricsDb = new Database(path.join(dataDir, LOCAL_DATABASE_FILE), { readonly: true });
  metrics = new MetricsStore(metricsDb);
  const modelDataUrl = await publishTinyModelArchive(plane, "shadow", dataDir);
  // The candidate reads the same decision at another temperature, so its answers differ measurably.
  await model("sv-production", {}, modelDataUrl);
  await model("sv-candidate", { SEMIF_TEMPERATURE: "8" }, modelDataUrl);
  // A shadow that refuses every request body (400: Content-Length above SEMIF_MAX_BODY_BYTES).
  await model("sv-broken", { SEMIF_MAX_BODY_BYTES: "16" }, modelDataUrl);
  await endpoint("sv-alone", variant("Production", "sv-production", 1));
  await endpoint("sv-mirrored", variant("Production", "sv-production", 1), variant("Shadow", "sv-candidate", 1));
  await endpoint("sv-failing", variant("Production", "sv-production", 2), variant("Shadow", "sv-broken", 1));
  await Promise.all(["sv-alone", "sv-mirrored", "sv-failing"].map((name) => plane.endpoints.settled(name)));
  productionAlone = (await invoke("sv-alone")).decision;
}, 110_000);

afterAll(async () => {
  metricsDb?.close();
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("shadow variants", { timeout: 110_000 }, () => {
  it("describes the shadow variant beside the production variant, and its configuration as stored", async () => {
    const described = await sageMaker.send(new DescribeEndpointCommand({ EndpointName: "sv-mirrored" }));
    expect(described.EndpointStatus).toBe("InService");
    expect(described.ProductionVariants?.map((v) => v.VariantName)).toEqual(["Production"]);
    expect(described.ShadowProductionVariants).toHaveLength(1);
    expect(described.ShadowProductionVariants?.[0]).toMatchObject({
      VariantName: "Shadow",
      CurrentInstanceCount: 1,
      DesiredInstanceCount: 1,
      CurrentWeight: 1,
    });
    const config = await sageMaker.send(new DescribeEndpointConfigCommand({ EndpointConfigName: "sv-mirrored" }));
    expect(config.ShadowProductionVariants).toEqual([variant("Shadow", "sv-candidate", 1)]);
    const alone = await sageMaker.send(new DescribeEndpointCommand({ EndpointName: "sv-alone" }));
    expect(alone.ShadowProductionVariants).toBeUndefined();
  });

  it("answers every caller from production, copies every invocation at equal weights, captures and counts both", async () => {
    const invocations = 20;
    const answers = [];
    for (let i = 0; i < invocations; i++) answers.push(await invoke("sv-mirrored"));
    for (const answer of answers) expect(answer).toEqual({ variant: "Production", decision: productionAlone });
    await shadowSettled("sv-mirrored", "Shadow", (count) => count >= invocations);

    const production = samplesOf("sv-mirrored", "Production");
    const shadow = samplesOf("sv-mirrored", "Shadow");
    expect(production.map((s) => s.status)).toEqual(Array(invocations).fill(200));
    expect(shadow.map((s) => s.status)).toEqual(Array(invocations).fill(200));

    const productionRecords = await captured("sv-mirrored", "Production");
    const shadowRecords = await captured("sv-mirrored", "Shadow");
    expect(productionRecords).toHaveLength(invocations);
    expect(shadowRecords).toHaveLength(invocations);
    for (const record of [...productionRecords, ...shadowRecords]) {
      expect(record.captureData.endpointInput.data).toBe(body);
    }
    for (const record of productionRecords) {
      expect(decisionOf(record.captureData.endpointOutput.data)).toEqual(productionAlone);
    }
    // The shadow answered for itself (at its own temperature), and that answer reached no caller.
    const shadowDecision = decisionOf(shadowRecords[0].captureData.endpointOutput.data);
    expect(shadowDecision.temperature).toBe(8);
    expect(shadowDecision.probabilities).not.toEqual(productionAlone.probabilities);
    // The shadow's copies may be evaluated in different batches, which moves logits in the sixth decimal (float32).
    for (const record of shadowRecords) {
      const decision = decisionOf(record.captureData.endpointOutput.data);
      expect(decision.option_ids).toEqual(shadowDecision.option_ids);
      expect(decision.temperature).toBe(shadowDecision.temperature);
      for (const [i, p] of (decision.probabilities as number[]).entries()) {
        expect(p).toBeCloseTo(shadowDecision.probabilities[i], 4);
      }
    }
  });

  it("a shadow that answers errors never changes the caller's answer; it gets its share (weight 1 of 2)", async () => {
    const invocations = 40;
    for (let i = 0; i < invocations; i++) {
      expect(await invoke("sv-failing")).toEqual({ variant: "Production", decision: productionAlone });
    }
    // Binomial(40, 0.5): mean 20, standard deviation 3.2; 8-32 is more than 3.7 deviations either side.
    await shadowSettled("sv-failing", "Shadow", (count) => count >= 8);
    const shadow = samplesOf("sv-failing", "Shadow");
    expect(shadow.length).toBeGreaterThanOrEqual(8);
    expect(shadow.length).toBeLessThanOrEqual(32);
    expect(new Set(shadow.map((s) => s.status))).toEqual(new Set([400]));
    expect(samplesOf("sv-failing", "Production").map((s) => s.status)).toEqual(Array(invocations).fill(200));
    // Data capture keeps answered invocations: the shadow's refusals are not records.
    expect(await captured("sv-failing", "Shadow")).toHaveLength(0);
    expect(await captured("sv-failing", "Production")).toHaveLength(invocations);
  });

  it("a shadow whose container is stopped never changes the caller's answer", async () => {
    const described = await sageMaker.send(new DescribeEndpointCommand({ EndpointName: "sv-mirrored" }));
    expect(described.ShadowProductionVariants?.[0]?.VariantName).toBe("Shadow");
    const before = samplesOf("sv-mirrored", "Shadow").length;
    const shadowPid = plane.endpoints.instancePid("sv-mirrored", "Shadow");
    expect(shadowPid).toBeGreaterThan(0);
    process.kill(shadowPid as number, "SIGKILL");
    for (let i = 0; i < 5; i++) {
      expect(await invoke("sv-mirrored")).toEqual({ variant: "Production", decision: productionAlone });
    }
    await shadowSettled("sv-mirrored", "Shadow", (count) => count > before);
    // The copies sent before the instance is replaced (as SageMaker replaces one) find its container gone: 5xx.
    const copies = samplesOf("sv-mirrored", "Shadow").slice(before);
    expect(copies.length).toBeGreaterThan(0);
    expect(copies[0]?.status).toBe(500);
    await plane.endpoints.settled("sv-mirrored");
  });

  it("refuses what it does not serve with shadows: a deployment policy, changing the shadow, targeting it", async () => {
    await expect(
      sageMaker.send(
        new UpdateEndpointCommand({
          EndpointName: "sv-mirrored",
          EndpointConfigName: "sv-alone",
          DeploymentConfig: {
            BlueGreenUpdatePolicy: { TrafficRoutingConfiguration: { Type: "ALL_AT_ONCE", WaitIntervalInSeconds: 0 } },
          },
        }),
      ),
    ).rejects.toMatchObject({
      name: "ValidationException",
      message:
        "A DeploymentConfig for an update to or from an endpoint configuration with ShadowProductionVariants is not served by the local control plane.",
    });
    await expect(
      sageMaker.send(
        new UpdateEndpointWeightsAndCapacitiesCommand({
          EndpointName: "sv-mirrored",
          DesiredWeightsAndCapacities: [{ VariantName: "Shadow", DesiredWeight: 0.5 }],
        }),
      ),
    ).rejects.toMatchObject({
      name: "ValidationException",
      message:
        'UpdateEndpointWeightsAndCapacities of the shadow variant "Shadow" is not served by the local control plane.',
    });
    await expect(
      runtime.send(
        new InvokeEndpointCommand({
          EndpointName: "sv-mirrored",
          ContentType: "application/json",
          Body: body,
          TargetVariant: "Shadow",
        }),
      ),
    ).rejects.toMatchObject({
      name: "ValidationError",
      message: "TargetVariant Shadow (the endpoint's shadow variant) is not served by the local control plane.",
    });
  });

  it("UpdateEndpoint adds and removes the shadow with the configuration, all at once", async () => {
    await sageMaker.send(new UpdateEndpointCommand({ EndpointName: "sv-failing", EndpointConfigName: "sv-alone" }));
    await sageMaker.send(new UpdateEndpointCommand({ EndpointName: "sv-alone", EndpointConfigName: "sv-mirrored" }));
    await Promise.all(["sv-failing", "sv-alone"].map((name) => plane.endpoints.settled(name)));
    const removed = await sageMaker.send(new DescribeEndpointCommand({ EndpointName: "sv-failing" }));
    expect(removed).toMatchObject({ EndpointStatus: "InService", EndpointConfigName: "sv-alone" });
    expect(removed.ShadowProductionVariants).toBeUndefined();
    const added = await sageMaker.send(new DescribeEndpointCommand({ EndpointName: "sv-alone" }));
    expect(added).toMatchObject({ EndpointStatus: "InService", EndpointConfigName: "sv-mirrored" });
    expect(added.ShadowProductionVariants?.map((v) => v.VariantName)).toEqual(["Shadow"]);

    const failingBefore = samplesOf("sv-failing", "Shadow").length;
    for (let i = 0; i < 5; i++) {
      expect(await invoke("sv-failing")).toEqual({ variant: "Production", decision: productionAlone });
      expect(await invoke("sv-alone")).toEqual({ variant: "Production", decision: productionAlone });
    }
    await shadowSettled("sv-alone", "Shadow", (count) => count >= 5);
    expect(samplesOf("sv-alone", "Shadow").map((s) => s.status)).toEqual(Array(5).fill(200));
    expect(samplesOf("sv-failing", "Shadow")).toHaveLength(failingBefore);
  });
});
