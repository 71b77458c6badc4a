import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { DescribeModelCommand, ListEndpointsCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import { InvokeEndpointWithResponseStreamCommand, SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ControlPlane, startControlPlane } from "./control-plane.ts";
import { type AccessKey, readLocalAccessKey } from "./local-credentials.ts";
import { localClientConfig } from "./stack.ts";
import {
  jsonErrorCode,
  type RawAnswer,
  s3ErrorCode,
  sendJson,
  sendRaw,
  sendSigned,
  sha256Hex,
  signRequest,
} from "./test-support/signed-request.ts";
import { testExecutionRoleArn, testStackFixture } from "./test-support/stack-fixture.ts";

const LOCAL_ARTIFACT_BUCKET = testStackFixture().bucket;

/**
 * The control plane authenticates every request as AWS does (issue 12, critical 1): SigV4 recomputed with the keys
 * it issued at start, each protocol refusing in its own words, always 4xx.
 */
const bucket = LOCAL_ARTIFACT_BUCKET;
let dataDir: string;
let plane: ControlPlane;
let admin: AccessKey;
const stranger: AccessKey = {
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
};
const wrongSecret = () => ({ accessKeyId: admin.accessKeyId, secretAccessKey: `${admin.secretAccessKey.slice(1)}x` });

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-auth-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0, waitForEndpoints: false });
  admin = plane.credentials.keys.admin;
});

afterAll(async () => {
  console.log(`authentication test traffic: ${JSON.stringify(plane?.traffic)}`);
  expect(plane.traffic.failed).toBe(0);
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const createModel = (environment: Record<string, string>) => ({
  ModelName: "probe",
  ExecutionRoleArn: testExecutionRoleArn(),
  PrimaryContainer: {
    Image: "000000000000.dkr.ecr.us-east-1.amazonaws.com/decision-adapter:cpu",
    Environment: environment,
  },
});

function forgedAuthorization(accessKeyId: string, date: string): string {
  return `AWS4-HMAC-SHA256 Credential=${accessKeyId}/${date.slice(0, 8)}/us-east-1/sagemaker/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=${"ab".repeat(32)}`;
}

function amzDate(time = Date.now()): string {
  return new Date(time).toISOString().replace(/[-:]|\.\d{3}/g, "");
}

describe("the probe: a SigV4-shaped Authorization header with a forged signature", () => {
  it("is refused and creates nothing, whether the key id is made up or the admin's", async () => {
    const date = amzDate();
    const headers = {
      "content-type": "application/x-amz-json-1.1",
      "x-amz-target": "SageMaker.CreateModel",
      "x-amz-date": date,
    };
    const body = JSON.stringify(createModel({ NODE_OPTIONS: "--require /tmp/evil.cjs", LD_PRELOAD: "/tmp/evil.so" }));
    const madeUp = await sendRaw(plane, {
      method: "POST",
      path: "/",
      headers: { ...headers, authorization: forgedAuthorization("AKIAFORGEDFORGED0000", date) },
      body,
    });
    expect(madeUp.status).toBe(400);
    expect(jsonErrorCode(madeUp)).toBe("UnrecognizedClientException");
    const borrowed = await sendRaw(plane, {
      method: "POST",
      path: "/",
      headers: { ...headers, authorization: forgedAuthorization(admin.accessKeyId, date) },
      body,
    });
    expect(borrowed.status).toBe(400);
    expect(jsonErrorCode(borrowed)).toBe("InvalidSignatureException");
    await expect(
      new SageMakerClient(localClientConfig(plane)).send(new DescribeModelCommand({ ModelName: "probe" })),
    ).rejects.toMatchObject({ name: "ValidationException" });
  });
});

describe("every protocol refuses in its own words", () => {
  const runtimeInvoke = (key: AccessKey) =>
    new SageMakerRuntimeClient({ ...localClientConfig(plane), credentials: key }).send(
      new InvokeEndpointWithResponseStreamCommand({
        EndpointName: "anything",
        Body: Buffer.from("{}"),
        ContentType: "application/json",
      }),
    );
  const sageMaker = (key: AccessKey) =>
    new SageMakerClient({ ...localClientConfig(plane), credentials: key }).send(new ListEndpointsCommand({}));
  const s3Get = (key: AccessKey) =>
    new S3Client({ ...localClientConfig(plane), credentials: key, forcePathStyle: true }).send(
      new GetObjectCommand({ Bucket: bucket, Key: "absent" }),
    );

  it("a request with no signature: 403 MissingAuthenticationToken (JSON, runtime), AccessDenied (S3)", async () => {
    const json = await sendRaw(plane, {
      method: "POST",
      path: "/",
      headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": "SageMaker.ListEndpoints" },
      body: "{}",
    });
    expect([json.status, jsonErrorCode(json)]).toEqual([403, "MissingAuthenticationTokenException"]);
    const runtime = await sendRaw(plane, { method: "POST", path: "/endpoints/e/invocations", body: "{}" });
    expect([runtime.status, jsonErrorCode(runtime)]).toEqual([403, "MissingAuthenticationTokenException"]);
    const s3 = await sendRaw(plane, { method: "GET", path: `/${bucket}/absent` });
    expect([s3.status, s3ErrorCode(s3)]).toEqual([403, "AccessDenied"]);
  });

  it("a key this control plane did not issue: UnrecognizedClientException, S3 InvalidAccessKeyId", async () => {
    await expect(sageMaker(stranger)).rejects.toMatchObject({
      name: "UnrecognizedClientException",
      $metadata: { httpStatusCode: 400 },
    });
    await expect(runtimeInvoke(stranger)).rejects.toMatchObject({ name: "UnrecognizedClientException" });
    await expect(s3Get(stranger)).rejects.toMatchObject({
      name: "InvalidAccessKeyId",
      $metadata: { httpStatusCode: 403 },
    });
  });

  it("a signature made with the wrong secret: InvalidSignatureException, S3 SignatureDoesNotMatch", async () => {
    await expect(sageMaker(wrongSecret())).rejects.toMatchObject({
      name: "InvalidSignatureException",
      $metadata: { httpStatusCode: 400 },
    });
    await expect(runtimeInvoke(wrongSecret())).rejects.toMatchObject({ name: "InvalidSignatureException" });
    await expect(s3Get(wrongSecret())).rejects.toMatchObject({
      name: "SignatureDoesNotMatch",
      $metadata: { httpStatusCode: 403 },
    });
  });

  it("a signature scoped to another service", async () => {
    const answer = await sendJson(plane, "SageMaker.ListEndpoints", {}, { key: admin, service: "s3" });
    expect([answer.status, jsonErrorCode(answer)]).toEqual([400, "InvalidSignatureException"]);
    expect(answer.text).toContain("Credential should be scoped to correct service: 'sagemaker'");
  });

  it("a body changed after signing", async () => {
    const request = {
      method: "POST",
      path: "/",
      headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": "SageMaker.ListEndpoints" },
      body: '{"MaxResults":10}',
    };
    const { headers } = await signRequest(plane, request, { key: admin, service: "sagemaker" });
    const tampered = await sendRaw(plane, { ...request, headers, body: '{"MaxResults":99}' });
    expect([tampered.status, jsonErrorCode(tampered)]).toEqual([400, "InvalidSignatureException"]);
    const withHash = await signRequest(plane, request, {
      key: admin,
      service: "sagemaker",
      payloadHash: sha256Hex(request.body),
    });
    const claimed = await sendRaw(plane, { ...request, headers: withHash.headers, body: '{"MaxResults":99}' });
    expect([claimed.status, jsonErrorCode(claimed)]).toEqual([400, "InvalidSignatureException"]);
  });

  it("a request signed more than 15 minutes before or after the control plane's clock", async () => {
    for (const offset of [-16 * 60_000, 16 * 60_000]) {
      const signingDate = new Date(Date.now() + offset);
      const json = await sendJson(
        plane,
        "SageMaker.ListEndpoints",
        {},
        { key: admin, service: "sagemaker", signingDate },
      );
      expect([json.status, jsonErrorCode(json)]).toEqual([400, "InvalidSignatureException"]);
      expect(json.text).toMatch(offset < 0 ? /Signature expired: \d{8}T\d{6}Z is now earlier than/ : /not yet current/);
      const s3 = await sendSigned(
        plane,
        { method: "GET", path: `/${bucket}/absent` },
        { key: admin, service: "s3", signingDate },
      );
      expect([s3.status, s3ErrorCode(s3)]).toEqual([403, "RequestTimeTooSkewed"]);
      expect(s3.text).toContain("<MaxAllowedSkewMilliseconds>900000</MaxAllowedSkewMilliseconds>");
    }
    const fresh = await sendJson(
      plane,
      "SageMaker.ListEndpoints",
      {},
      {
        key: admin,
        service: "sagemaker",
        signingDate: new Date(Date.now() - 14 * 60_000),
      },
    );
    expect(fresh.status).toBe(200);
  });

  it("a malformed Authorization header, a session token and a presigned URL", async () => {
    const malformed = await sendRaw(plane, {
      method: "POST",
      path: "/",
      headers: {
        "x-amz-target": "SageMaker.ListEndpoints",
        "x-amz-date": amzDate(),
        authorization: "AWS4-HMAC-SHA256 Credential=AKIA/bad, Signature=zz",
      },
      body: "{}",
    });
    expect([malformed.status, jsonErrorCode(malformed)]).toEqual([400, "IncompleteSignatureException"]);
    const token = await sendSigned(
      plane,
      { method: "GET", path: `/${bucket}/absent`, headers: { "x-amz-security-token": "forged" } },
      { key: admin, service: "s3" },
    );
    expect([token.status, s3ErrorCode(token)]).toEqual([400, "InvalidToken"]);
    const presigned = await sendRaw(plane, {
      method: "GET",
      path: `/${bucket}/absent`,
      query: `X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${admin.accessKeyId}%2F20260101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Signature=${"0".repeat(64)}`,
    });
    expect([presigned.status, s3ErrorCode(presigned)]).toEqual([403, "AccessDenied"]);
  });
});

describe("S3 payloads are checked against what was signed", () => {
  const put = (key: string, body: Buffer, headers: Record<string, string>, payloadHash?: string) =>
    signRequest(
      plane,
      { method: "PUT", path: `/${bucket}/${key}`, headers, body },
      { key: admin, service: "s3", payloadHash },
    );
  const stored = (key: string) =>
    new S3Client({ ...localClientConfig(plane), forcePathStyle: true })
      .send(new HeadObjectCommand({ Bucket: bucket, Key: key }))
      .then(
        (head) => head.ContentLength,
        () => undefined,
      );

  it("refuses a body whose SHA-256 is not the signed one, and stores nothing", async () => {
    const body = Buffer.from("the signed bytes");
    const { headers } = await put("payload/tampered", body, {});
    const answer = await sendRaw(plane, {
      method: "PUT",
      path: `/${bucket}/payload/tampered`,
      headers,
      body: Buffer.from("the other bytes!"),
    });
    expect([answer.status, s3ErrorCode(answer)]).toEqual([400, "XAmzContentSHA256Mismatch"]);
    expect(await stored("payload/tampered")).toBeUndefined();
  });

  it("stores UNSIGNED-PAYLOAD bodies, and refuses a request without x-amz-content-sha256", async () => {
    const body = Buffer.from("unsigned");
    const { headers } = await put("payload/unsigned", body, {}, "UNSIGNED-PAYLOAD");
    expect((await sendRaw(plane, { method: "PUT", path: `/${bucket}/payload/unsigned`, headers, body })).status).toBe(
      200,
    );
    expect(await stored("payload/unsigned")).toBe(body.length);
    const missing = await sendSigned(
      plane,
      { method: "GET", path: "/" },
      { key: admin, service: "s3", payloadHash: null },
    );
    expect([missing.status, s3ErrorCode(missing)]).toEqual([400, "InvalidRequest"]);
  });

  it("verifies every chunk signature of a STREAMING-AWS4-HMAC-SHA256-PAYLOAD upload", async () => {
    const chunks = [Buffer.alloc(8192, "a"), Buffer.from("tail")];
    const upload = async (key: string, tamper: boolean) => {
      const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
      const headers = { "content-encoding": "aws-chunked", "x-amz-decoded-content-length": String(length) };
      const signingDate = new Date();
      const { headers: signed, signer } = await signRequest(
        plane,
        { method: "PUT", path: `/${bucket}/${key}`, headers },
        { key: admin, service: "s3", payloadHash: "STREAMING-AWS4-HMAC-SHA256-PAYLOAD", signingDate },
      );
      let previous = /Signature=([0-9a-f]{64})/.exec(signed.authorization ?? "")?.[1] ?? "";
      const scope = /Credential=[^/]+\/([^,]+)/.exec(signed.authorization ?? "")?.[1] ?? "";
      const parts: Buffer[] = [];
      for (const data of [...chunks, Buffer.alloc(0)]) {
        const stringToSign = [
          "AWS4-HMAC-SHA256-PAYLOAD",
          signed["x-amz-date"],
          scope,
          previous,
          sha256Hex(""),
          sha256Hex(data),
        ].join("\n");
        previous = await signer.sign(stringToSign, { signingDate });
        const sent = tamper && data.length === 4 ? Buffer.from("TAIL") : data;
        parts.push(
          Buffer.from(`${data.length.toString(16)};chunk-signature=${previous}\r\n`),
          sent,
          Buffer.from("\r\n"),
        );
      }
      return sendRaw(plane, { method: "PUT", path: `/${bucket}/${key}`, headers: signed, body: Buffer.concat(parts) });
    };
    expect((await upload("payload/chunked", false)).status).toBe(200);
    expect(await stored("payload/chunked")).toBe(8196);
    const tampered = await upload("payload/chunked-tampered", true);
    expect([tampered.status, s3ErrorCode(tampered)]).toEqual([403, "SignatureDoesNotMatch"]);
    expect(await stored("payload/chunked-tampered")).toBeUndefined();
  });

  it("accepts the SDK's own streamed uploads (STREAMING-UNSIGNED-PAYLOAD-TRAILER)", async () => {
    const s3 = new S3Client({ ...localClientConfig(plane), forcePathStyle: true });
    const { Readable } = await import("node:stream");
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: "payload/sdk-stream",
        Body: Readable.from([Buffer.from("streamed")]),
        ContentLength: 8,
      }),
    );
    expect(await stored("payload/sdk-stream")).toBe(8);
  });
});

describe("the credentials the control plane issues", () => {
  it("are a shared credentials file with console and admin profiles, readable by this user only", () => {
    const { file } = plane.credentials;
    expect(file).toBe(path.join(dataDir, "local-aws", "credentials"));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(plane.credentials.configFile).mode & 0o777).toBe(0o600);
    const text = fs.readFileSync(file, "utf8");
    expect([...text.matchAll(/^\[(.+)\]$/gm)].map((match) => match[1])).toEqual(["console", "admin"]);
    expect(readLocalAccessKey(dataDir, "console")).toEqual(plane.credentials.keys.console);
    expect(new Set(Object.values(plane.credentials.keys).map((key) => key.accessKeyId)).size).toBe(2);
  });

  it("give each build keys of its own, held to its project's role and refused once the build ends", async () => {
    const buildId = "decision-console-model-package:keys-test";
    const key = plane.credentials.issueBuildKey("decision-console-model-package", buildId);
    expect(plane.credentials.find(key.accessKeyId)?.principal).toEqual({
      kind: "codebuild",
      project: "decision-console-model-package",
      buildId,
    });
    const s3 = new S3Client({ ...localClientConfig(plane), credentials: key, forcePathStyle: true });
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: "models/keys-test/model.tar.gz", Body: "x" }));
    await expect(
      s3.send(new PutObjectCommand({ Bucket: bucket, Key: "build-sources/keys-test.zip", Body: "x" })),
    ).rejects.toMatchObject({
      name: "AccessDenied",
      message: expect.stringContaining(
        "assumed-role/DecisionConsole-ModelPackageBuildRoleB4203A61/AWSCodeBuild-keys-test is not authorized to perform: s3:PutObject",
      ),
    });
    plane.credentials.revokeKey(key.accessKeyId);
    await expect(
      s3.send(new PutObjectCommand({ Bucket: bucket, Key: "models/keys-test/model.tar.gz", Body: "x" })),
    ).rejects.toMatchObject({ name: "InvalidAccessKeyId" });
    plane.credentials.revokeKey(plane.credentials.keys.console.accessKeyId);
    expect(plane.credentials.find(plane.credentials.keys.console.accessKeyId)).toBeDefined();
  });

  it("let the console write build sources only: a PutObject under models/ is AccessDenied and stores nothing", async () => {
    const s3 = new S3Client({ ...localClientConfig(plane, "console"), forcePathStyle: true });
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: "build-sources/console-test.zip", Body: "zip" }));
    await expect(
      s3.send(new PutObjectCommand({ Bucket: bucket, Key: "models/console-test/model.tar.gz", Body: "x" })),
    ).rejects.toMatchObject({
      name: "AccessDenied",
      message: expect.stringContaining("user/decision-console is not authorized to perform: s3:PutObject"),
    });
    const asAdmin = new S3Client({ ...localClientConfig(plane, "admin"), forcePathStyle: true });
    await expect(
      asAdmin.send(new HeadObjectCommand({ Bucket: bucket, Key: "models/console-test/model.tar.gz" })),
    ).rejects.toMatchObject({ name: "NotFound" });
  });

  it("are new at each start: keys of the previous start are refused", async () => {
    const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-auth-restart-"));
    const first = await startControlPlane({
      fixture: testStackFixture(),
      dataDir: otherDir,
      port: 0,
      waitForEndpoints: false,
    });
    const old = first.credentials.keys.admin;
    await first.close();
    const second = await startControlPlane({
      fixture: testStackFixture(),
      dataDir: otherDir,
      port: 0,
      waitForEndpoints: false,
    });
    try {
      expect(second.credentials.keys.admin.accessKeyId).not.toBe(old.accessKeyId);
      await expect(
        new SageMakerClient({ ...localClientConfig(second), credentials: old }).send(new ListEndpointsCommand({})),
      ).rejects.toMatchObject({ name: "UnrecognizedClientException" });
      await new SageMakerClient(localClientConfig(second, "console")).send(new ListEndpointsCommand({}));
    } finally {
      await second.close();
      fs.rmSync(otherDir, { recursive: true, force: true });
    }
  });
});

describe("/_local/health", () => {
  const health = async (answer: Promise<RawAnswer>) => {
    const { status, text } = await answer;
    return { status, body: JSON.parse(text) as Record<string, unknown> };
  };

  it("says only ok without the admin's signature, and where the data is with it", async () => {
    expect(await health(sendRaw(plane, { method: "GET", path: "/_local/health" }))).toEqual({
      status: 200,
      body: { status: "ok" },
    });
    const asConsole = sendSigned(
      plane,
      { method: "GET", path: "/_local/health" },
      {
        key: plane.credentials.keys.console,
        service: "s3",
      },
    );
    expect((await health(asConsole)).body).toEqual({ status: "ok" });
    const forged = sendSigned(plane, { method: "GET", path: "/_local/health" }, { key: wrongSecret(), service: "s3" });
    expect((await health(forged)).body).toEqual({ status: "ok" });
    const asAdmin = sendSigned(plane, { method: "GET", path: "/_local/health" }, { key: admin, service: "s3" });
    expect((await health(asAdmin)).body).toEqual({
      status: "ok",
      dataDir: plane.dataDir,
      credentialsFile: plane.credentials.file,
    });
  });
});
