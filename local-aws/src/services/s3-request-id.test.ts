import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ControlPlane, startControlPlane } from "../control-plane.ts";
import { localClientConfig } from "../stack.ts";
import { testStackFixture } from "../test-support/stack-fixture.ts";

const LOCAL_ARTIFACT_BUCKET = testStackFixture().bucket;

/** S3's Common Response Headers: every answer carries x-amz-request-id, which the SDK reads as $metadata.requestId. */
let dataDir: string;
let plane: ControlPlane;
let s3: S3Client;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-s3-request-id-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0, waitForEndpoints: false });
  s3 = new S3Client({ ...localClientConfig(plane, "admin"), forcePathStyle: true });
});

afterAll(async () => {
  s3?.destroy();
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("local S3's request ids", () => {
  it("answers PutObject, GetObject and HeadObject with a request id", async () => {
    const key = { Bucket: LOCAL_ARTIFACT_BUCKET, Key: "request-id/probe.txt" };
    const put = await s3.send(new PutObjectCommand({ ...key, Body: "probe" }));
    const got = await s3.send(new GetObjectCommand(key));
    await got.Body?.transformToString();
    const head = await s3.send(new HeadObjectCommand(key));
    for (const answer of [put, got, head]) expect(answer.$metadata.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });
});
