import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  CreateEndpointConfigCommand,
  CreateModelCommand,
  type DataCaptureConfig,
  DescribeEndpointCommand,
  SageMakerClient,
} from "@aws-sdk/client-sagemaker";
import {
  InvokeEndpointAsyncCommand,
  InvokeEndpointCommand,
  SageMakerRuntimeClient,
} from "@aws-sdk/client-sagemaker-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ControlPlane, startControlPlane } from "../control-plane.ts";
import { localClientConfig } from "../stack.ts";
import { localAdapterImageUri } from "../test-support/adapter-image.ts";
import { publishTinyModelArchive } from "../test-support/batch-model.ts";
import { createEndpoint } from "../test-support/create-endpoint.ts";
import { routeDecision } from "../test-support/route-decision.ts";
import { testExecutionRoleArn, testStackFixture } from "../test-support/stack-fixture.ts";

/**
 * Data capture on the local control plane (real-time and asynchronous endpoints): records in the Developer Guide's format under
 * `<destination>/<endpoint>/<variant>/yyyy/mm/dd/hh/`, the sampling share within statistical bounds, written as
 * the model's execution role (so a destination the role may not write gets nothing), and what is not served refused.
 */
let dataDir: string;
let plane: ControlPlane;
let sageMaker: SageMakerClient;
let runtime: SageMakerRuntimeClient;
let modelDataUrl: string;

const capture = (overrides: Partial<DataCaptureConfig> = {}): DataCaptureConfig => ({
  EnableCapture: true,
  InitialSamplingPercentage: 100,
  DestinationS3Uri: `s3://${plane.bucket}/data-capture`,
  CaptureOptions: [{ CaptureMode: "InputAndOutput" }],
  CaptureContentTypeHeader: { JsonContentTypes: ["application/json"] },
  ...overrides,
});

async function endpointWith(name: string, dataCapture: DataCaptureConfig) {
  await createEndpoint(
    sageMaker,
    name,
    { Image: localAdapterImageUri(plane), ModelDataUrl: modelDataUrl, Environment: { ADAPTER_THREADS: "1" } },
    { executionRoleArn: testExecutionRoleArn(), dataCapture },
  );
  await plane.endpoints.settled(name);
}

async function invoke(name: string, times: number, inferenceId?: string) {
  const body = JSON.stringify(routeDecision);
  for (let i = 0; i < times; i++) {
    await runtime.send(
      new InvokeEndpointCommand({
        EndpointName: name,
        ContentType: "application/json",
        Body: body,
        ...(inferenceId ? { InferenceId: inferenceId } : {}),
      }),
    );
  }
}

/** Every captured record of an endpoint, read back from the object store, with the key it was in. */
async function records(name: string) {
  await plane.capture.flush();
  const objects = plane.objects.list(plane.bucket, `data-capture/${name}/`, "", 10_000);
  return objects.flatMap((object) =>
    fs
      .readFileSync(plane.objects.getObject(plane.bucket, object.key).file, "utf8")
      .trim()
      .split("\n")
      .map((line) => ({ key: object.key, record: JSON.parse(line) })),
  );
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-capture-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0 });
  sageMaker = new SageMakerClient(localClientConfig(plane));
  runtime = new SageMakerRuntimeClient(localClientConfig(plane));
  modelDataUrl = await publishTinyModelArchive(plane, "capture", dataDir);
}, 120_000);

afterAll(async () => {
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("data capture", { timeout: 120_000 }, () => {
  it("writes every invocation at 100%, in SageMaker's record format and folder layout", async () => {
    await endpointWith("dc-capture-all", capture());
    const described = await sageMaker.send(new DescribeEndpointCommand({ EndpointName: "dc-capture-all" }));
    expect(described.DataCaptureConfig).toMatchObject({
      EnableCapture: true,
      CaptureStatus: "Started",
      CurrentSamplingPercentage: 100,
      DestinationS3Uri: `s3://${plane.bucket}/data-capture`,
    });
    await invoke("dc-capture-all", 11);
    await invoke("dc-capture-all", 1, "ticket-4711");
    const captured = await records("dc-capture-all");
    expect(captured).toHaveLength(12);
    const now = new Date();
    const hour = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, "0")}/${String(now.getUTCDate()).padStart(2, "0")}`;
    for (const { key, record } of captured) {
      expect(key).toMatch(
        new RegExp(
          `^data-capture/dc-capture-all/AllTraffic/${hour}/\\d{2}/\\d{2}-\\d{2}-\\d{3}-[0-9a-f-]{36}\\.jsonl$`,
        ),
      );
      expect(record.eventVersion).toBe("0");
      expect(record.eventMetadata.eventId).toMatch(/^[0-9a-f-]{36}$/);
      expect(Number.isNaN(Date.parse(record.eventMetadata.inferenceTime))).toBe(false);
      expect(record.captureData.endpointInput).toEqual({
        observedContentType: "application/json",
        mode: "INPUT",
        data: JSON.stringify(routeDecision),
        encoding: "JSON",
      });
      expect(record.captureData.endpointOutput).toMatchObject({ mode: "OUTPUT", encoding: "JSON" });
      const answer = JSON.parse(record.captureData.endpointOutput.data);
      expect(answer.probabilities ?? answer.decision ?? answer).toBeTruthy();
    }
    expect(captured.filter(({ record }) => record.eventMetadata.inferenceId === "ticket-4711")).toHaveLength(1);
  });

  it("samples InitialSamplingPercentage of invocations, input only, base64 without a content-type header", async () => {
    await endpointWith(
      "dc-capture-some",
      capture({
        InitialSamplingPercentage: 30,
        CaptureOptions: [{ CaptureMode: "Input" }],
        CaptureContentTypeHeader: undefined,
      }),
    );
    await invoke("dc-capture-some", 300);
    const captured = await records("dc-capture-some");
    // Binomial(300, 0.3): mean 90, standard deviation 7.9; 55-125 is more than 4.4 deviations either side.
    expect(captured.length).toBeGreaterThanOrEqual(55);
    expect(captured.length).toBeLessThanOrEqual(125);
    for (const { record } of captured) {
      expect(record.captureData.endpointOutput).toBeUndefined();
      expect(record.captureData.endpointInput.encoding).toBe("BASE64");
      expect(Buffer.from(record.captureData.endpointInput.data, "base64").toString("utf8")).toBe(
        JSON.stringify(routeDecision),
      );
    }
  });

  it("writes as the execution role: a destination it may not write gets nothing, and the endpoint's log says why", async () => {
    await endpointWith("dc-capture-denied", capture({ DestinationS3Uri: `s3://${plane.bucket}/models/captured` }));
    await invoke("dc-capture-denied", 3);
    await plane.capture.flush();
    expect(plane.objects.list(plane.bucket, "models/captured/", "", 100)).toHaveLength(0);
    // The writer's timer may flush between two invocations, so the three records can be refused in more than one object.
    const refused = plane.logs
      .scan("/aws/sagemaker/Endpoints/dc-capture-denied", { after: 0, limit: 1000 })
      .map((event) =>
        /^Could not write (\d+) captured record\(s\) to s3:\/\/[^ ]+\/models\/captured\//.exec(event.message),
      )
      .reduce((sum, match) => sum + (match ? Number(match[1]) : 0), 0);
    expect(refused).toBe(3);
  });

  it("captures an asynchronous endpoint's answered requests once each, with the input it read from S3", async () => {
    await createEndpoint(
      sageMaker,
      "dc-capture-async",
      { Image: localAdapterImageUri(plane), ModelDataUrl: modelDataUrl, Environment: { ADAPTER_THREADS: "1" } },
      {
        executionRoleArn: testExecutionRoleArn(),
        asyncInference: { OutputConfig: { S3OutputPath: `s3://${plane.bucket}/async/dc-capture-async/out/` } },
        dataCapture: capture(),
      },
    );
    await plane.endpoints.settled("dc-capture-async");
    const body = JSON.stringify(routeDecision);
    await plane.objects.putObject(plane.bucket, "async/dc-capture-async/in/ticket.json", Buffer.from(body), {
      contentType: "application/json",
    });
    const ids = ["async-1", "async-2", "async-3"];
    for (const id of ids) {
      await runtime.send(
        new InvokeEndpointAsyncCommand({
          EndpointName: "dc-capture-async",
          ContentType: "application/json",
          InputLocation: `s3://${plane.bucket}/async/dc-capture-async/in/ticket.json`,
          InferenceId: id,
        }),
      );
    }
    const answered = async () =>
      ids.every((id) => plane.objects.list(plane.bucket, `async/dc-capture-async/out/${id}.out`, "", 1).length === 1);
    for (let waited = 0; !(await answered()); waited += 200) {
      if (waited > 60_000) throw new Error("the asynchronous requests were not answered within a minute");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const captured = await records("dc-capture-async");
    expect(captured.map(({ record }) => record.eventMetadata.inferenceId).sort()).toEqual(ids);
    for (const { key, record } of captured) {
      expect(key).toMatch(/^data-capture\/dc-capture-async\/AllTraffic\/\d{4}\/\d{2}\/\d{2}\/\d{2}\/[^/]+\.jsonl$/);
      expect(record.captureData.endpointInput).toEqual({
        observedContentType: "application/json",
        mode: "INPUT",
        data: body,
        encoding: "JSON",
      });
      const id = record.eventMetadata.inferenceId;
      const out = plane.objects.getObject(plane.bucket, `async/dc-capture-async/out/${id}.out`);
      expect(record.captureData.endpointOutput.data).toBe(fs.readFileSync(out.file, "utf8"));
    }
  });

  it("refuses what it does not serve: a KMS key", async () => {
    await sageMaker.send(
      new CreateModelCommand({
        ModelName: "dc-capture-refused",
        ExecutionRoleArn: testExecutionRoleArn(),
        PrimaryContainer: { Image: localAdapterImageUri(plane), ModelDataUrl: modelDataUrl },
      }),
    );
    const variant = {
      VariantName: "AllTraffic",
      ModelName: "dc-capture-refused",
      InstanceType: "ml.c6i.large" as const,
      InitialInstanceCount: 1,
    };
    await expect(
      sageMaker.send(
        new CreateEndpointConfigCommand({
          EndpointConfigName: "dc-capture-kms",
          ProductionVariants: [variant],
          DataCaptureConfig: capture({ KmsKeyId: "alias/capture" }),
        }),
      ),
    ).rejects.toMatchObject({ name: "ValidationException", message: expect.stringContaining("KmsKeyId") });
  });
});
