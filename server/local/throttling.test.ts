import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ListBucketsCommand, S3Client } from "@aws-sdk/client-s3";
import { ListEndpointsCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import { InvokeEndpointCommand, SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import { afterEach, describe, expect, it } from "vitest";
import { LOCAL_ARTIFACT_BUCKET } from "./builds/build-runner.ts";
import { type ControlPlane, startControlPlane } from "./control-plane.ts";
import { seedModels, WITHOUT_TRAINED_MODEL } from "./seed.ts";
import { localClientConfig } from "./stack.ts";

/**
 * `LOCAL_AWS_MAX_TPS` throttles each service in its own protocol's words (issue 20, item 3), so SDK clients parse
 * the answer and retry: S3 503 SlowDown (XML), the JSON services and SageMaker Runtime ThrottlingException.
 * The control plane's clock stands still here, so a throttling window ends only when the test says.
 */
let dataDir: string;
let plane: ControlPlane | undefined;

afterEach(async () => {
  await plane?.close();
  plane = undefined;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function throttledPlane(clock: () => number): Promise<ControlPlane> {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-throttle-"));
  plane = await startControlPlane({ dataDir, port: 0, waitForEndpoints: false, maxRequestsPerSecond: 1, clock });
  return plane;
}

describe("beyond LOCAL_AWS_MAX_TPS", () => {
  it("each service answers as its AWS counterpart does", async () => {
    const now = Date.now();
    const limited = await throttledPlane(() => now);
    const s3 = new S3Client({ ...localClientConfig(limited), forcePathStyle: true });
    const sageMaker = new SageMakerClient(localClientConfig(limited));
    const runtime = new SageMakerRuntimeClient(localClientConfig(limited));
    const invoke = () =>
      runtime.send(
        new InvokeEndpointCommand({ EndpointName: "none", Body: Buffer.from("{}"), ContentType: "application/json" }),
      );

    await s3.send(new ListBucketsCommand({}));
    await expect(s3.send(new ListBucketsCommand({}))).rejects.toMatchObject({
      name: "SlowDown",
      message: "Please reduce your request rate.",
      $metadata: { httpStatusCode: 503 },
    });
    await sageMaker.send(new ListEndpointsCommand({}));
    await expect(sageMaker.send(new ListEndpointsCommand({}))).rejects.toMatchObject({
      name: "ThrottlingException",
      $metadata: { httpStatusCode: 400 },
    });
    await expect(invoke()).rejects.toMatchObject({ name: "ValidationError" });
    await expect(invoke()).rejects.toMatchObject({ name: "ThrottlingException", $metadata: { httpStatusCode: 400 } });
    expect(limited.traffic.throttled).toBe(3);
  });

  it("first-run seeding through S3 is throttled, retries as the SDK does, and succeeds", async () => {
    // Time moves on by one second each time a request is throttled, so every retry finds a new window.
    const start = Date.now();
    const limited = await throttledPlane(() => start + 1000 * (plane?.traffic.throttled ?? 0));
    await new S3Client({ ...localClientConfig(limited), forcePathStyle: true }).send(new ListBucketsCommand({}));
    // The trained model's 98 MB upload is left out: its seeding is trained-seed.model.test.ts's.
    const seeded = await seedModels(limited, WITHOUT_TRAINED_MODEL);
    expect(seeded.map((model) => model.modelDataUrl)).toContain(
      `s3://${LOCAL_ARTIFACT_BUCKET}/models/seed/synthetic-tiny/model.tar.gz`,
    );
    for (const model of seeded) {
      expect(
        limited.objects.find(LOCAL_ARTIFACT_BUCKET, model.modelDataUrl.split(`${LOCAL_ARTIFACT_BUCKET}/`)[1]!),
      ).toBeDefined();
    }
    expect(limited.traffic.throttled).toBeGreaterThanOrEqual(seeded.length);
  }, 120_000);
});
