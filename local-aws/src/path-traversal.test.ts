import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CreateMultipartUploadCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { DescribeEndpointCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ControlPlane, startControlPlane } from "./control-plane.ts";
import { openLocalDatabase } from "./database.ts";
import { localClientConfig } from "./stack.ts";
import { localAdapterImageUri } from "./test-support/adapter-image.ts";
import { createEndpoint, type TestContainer } from "./test-support/create-endpoint.ts";
import { type RawAnswer, s3ErrorCode, sendSigned } from "./test-support/signed-request.ts";
import { testExecutionRoleArn, testStackFixture } from "./test-support/stack-fixture.ts";

const LOCAL_ARTIFACT_BUCKET = testStackFixture().bucket;

/**
 * Object keys and model data cannot make local mode touch a path outside its directories (issue 12, critical 2):
 * keys with `.`/`..` segments, NUL or backslashes are refused when written, `%ZZ` is a 400, and laying out an
 * uncompressed prefix or a model environment that names a path outside the model directory fails the endpoint.
 */
const bucket = LOCAL_ARTIFACT_BUCKET;
let dataDir: string;
let plane: ControlPlane;
const answers: RawAnswer[] = [];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-traversal-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0, waitForEndpoints: false });
});

afterAll(async () => {
  const refused = answers.filter((answer) => answer.status >= 400 && answer.status < 500).length;
  const serverErrors = answers.filter((answer) => answer.status >= 500).length;
  console.log(
    `path traversal reproductions: ${answers.length} raw requests, ${refused} refused (4xx), ${serverErrors} 5xx; control plane traffic ${JSON.stringify(plane?.traffic)}`,
  );
  expect(serverErrors).toBe(0);
  expect(plane.traffic.failed).toBe(0);
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function put(rawPath: string, query?: string): Promise<RawAnswer> {
  const answer = await sendSigned(
    plane,
    { method: "PUT", path: rawPath, query, body: "payload" },
    { key: plane.credentials.keys.admin, service: "s3" },
  );
  answers.push(answer);
  return answer;
}

describe("object keys local mode cannot store safely", () => {
  it("refuses the probe's key with 400 InvalidArgument, and writes nothing", async () => {
    const answer = await put(`/${bucket}/models/x/..%2F..%2F..%2Ftmp%2Fvictim`);
    expect(answer.status).toBe(400);
    expect(s3ErrorCode(answer)).toBe("InvalidArgument");
    expect(answer.text).toContain("the local S3 refuses keys it cannot lay out safely");
    expect(plane.objects.list(bucket, "models/", "", 10)).toEqual([]);
  });

  it.each([
    ["a literal .. segment", `/${bucket}/models/x/../../y`],
    ["an encoded .. segment", `/${bucket}/models/x/%2e%2e/y`],
    ["a . segment", `/${bucket}/models/./y`],
    ["a key that is only ..", `/${bucket}/..`],
    ["a NUL", `/${bucket}/models/a%00b`],
    ["a backslash", `/${bucket}/models/..%5C..%5Cy`],
  ])("refuses %s", async (_label, rawPath) => {
    const answer = await put(rawPath);
    expect([answer.status, s3ErrorCode(answer)]).toEqual([400, "InvalidArgument"]);
  });

  it("refuses such keys for multipart uploads too (CreateMultipartUpload, UploadPart)", async () => {
    const s3 = new S3Client({ ...localClientConfig(plane), forcePathStyle: true });
    await expect(
      s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: "models/x/../../escape" })),
    ).rejects.toMatchObject({ name: "InvalidArgument", $metadata: { httpStatusCode: 400 } });
    const part = await put(`/${bucket}/models/x/..%2Fescape`, "partNumber=1&uploadId=0123");
    expect([part.status, s3ErrorCode(part)]).toEqual([400, "InvalidArgument"]);
  });

  it("answers a key or bucket that does not percent-decode with 400 InvalidURI, never a URIError", async () => {
    for (const rawPath of [`/${bucket}/models/%ZZ`, "/%E0%A4%A/key", `/${bucket}/%ZZ/%ZZ`]) {
      const answer = await put(rawPath);
      expect([answer.status, s3ErrorCode(answer)]).toEqual([400, "InvalidURI"]);
    }
    const query = await put(`/${bucket}/models/ok`, "uploadId=%ZZ&partNumber=1");
    expect([query.status, s3ErrorCode(query)]).toEqual([400, "InvalidURI"]);
    const runtime = await sendSigned(
      plane,
      { method: "POST", path: "/endpoints/%ZZ/invocations", body: "{}" },
      { key: plane.credentials.keys.admin, service: "sagemaker" },
    );
    answers.push(runtime);
    expect(runtime.status).toBe(400);
  });

  it("still stores keys S3 allows that merely look unusual", async () => {
    const s3 = new S3Client({ ...localClientConfig(plane), forcePathStyle: true });
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: "models/..x/a..b/.hidden/%2F", Body: "ok" }));
    expect(plane.objects.find(bucket, "models/..x/a..b/.hidden/%2F")?.size).toBe(2);
  });
});

describe("laying out model data and environments from user data", () => {
  const sageMaker = () => new SageMakerClient(localClientConfig(plane));
  const image = () => localAdapterImageUri(plane);

  async function deploy(name: string, container: Omit<TestContainer, "Image">) {
    await createEndpoint(
      sageMaker(),
      name,
      { Image: image(), ...container },
      { executionRoleArn: testExecutionRoleArn() },
    );
    await plane.endpoints.settled(name);
    return sageMaker().send(new DescribeEndpointCommand({ EndpointName: name }));
  }

  it("fails an endpoint whose uncompressed S3 prefix holds a key that leaves the model directory, writing nothing outside", async () => {
    // As data stored before keys were checked would be: straight into the store, not through PutObject.
    const victim = path.join(dataDir, "victim");
    plane.objects.createBucket("legacy-data");
    await plane.objects.putObject("legacy-data", "models/x/model.gguf", Buffer.from("GGUF"));
    const db = openLocalDatabase(dataDir);
    db.prepare("UPDATE s3_objects SET key = ? WHERE bucket = ? AND key = ?").run(
      "models/x/../../../../victim",
      "legacy-data",
      "models/x/model.gguf",
    );
    db.close();
    const endpoint = await deploy("prefix-escape", {
      ModelDataSource: {
        S3DataSource: { S3Uri: "s3://legacy-data/models/x/", S3DataType: "S3Prefix", CompressionType: "None" },
      },
    });
    expect(endpoint.EndpointStatus).toBe("Failed");
    expect(endpoint.FailureReason).toContain("leaves the model directory");
    expect(fs.existsSync(victim)).toBe(false);
  });

  it("fails an endpoint whose ADAPTER_MODEL_PATH names a file outside /opt/ml/model", async () => {
    const s3 = new S3Client({ ...localClientConfig(plane), forcePathStyle: true });
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: "models/plain/model.gguf", Body: "GGUF" }));
    for (const [name, modelPath] of [
      ["model-path-etc", "/etc/passwd"],
      ["model-path-dots", "/opt/ml/model/../../../etc/passwd"],
    ] as const) {
      const endpoint = await deploy(name, {
        ModelDataSource: {
          S3DataSource: { S3Uri: `s3://${bucket}/models/plain/`, S3DataType: "S3Prefix", CompressionType: "None" },
        },
        Environment: { ADAPTER_MODEL_PATH: modelPath },
      });
      expect(endpoint.EndpointStatus).toBe("Failed");
      expect(endpoint.FailureReason).toContain(
        `ADAPTER_MODEL_PATH=${modelPath} does not name a file under /opt/ml/model`,
      );
    }
  });
});
