import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DescribeModelCommand, ListEndpointsCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ControlPlane, startControlPlane } from "./control-plane.ts";
import type { AccessKey } from "./local-credentials.ts";
import { localClientConfig } from "./stack.ts";
import { localAdapterImageUri } from "./test-support/adapter-image.ts";
import {
  jsonErrorCode,
  type RawAnswer,
  type RawRequest,
  s3ErrorCode,
  sendJson,
  sendRaw,
  sendSigned,
  signRequest,
} from "./test-support/signed-request.ts";
import { testExecutionRoleArn, testStackFixture } from "./test-support/stack-fixture.ts";

const LOCAL_ARTIFACT_BUCKET = testStackFixture().bucket;

/**
 * What a signature must cover (security issue 25, items 6 and 7): the headers AWS requires to be signed, the
 * payload, and a credential scope of this control plane's region and of the service addressed. Every request here
 * is forged or replayed from a real `@smithy/signature-v4` signature; each must be refused and change nothing.
 */
const bucket = LOCAL_ARTIFACT_BUCKET;
let dataDir: string;
let plane: ControlPlane;
let admin: AccessKey;
const forged = { sent: 0, refused: 0 };

async function forge(answer: Promise<RawAnswer>): Promise<RawAnswer> {
  const result = await answer;
  forged.sent += 1;
  if (result.status >= 400 && result.status < 500) forged.refused += 1;
  return result;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-signature-coverage-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0, waitForEndpoints: false });
  admin = plane.credentials.keys.admin;
});

afterAll(async () => {
  console.log(`signature coverage: ${forged.refused} of ${forged.sent} forged requests refused`);
  expect(plane.traffic.failed).toBe(0);
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const sageMakerCall = (target: string, body: unknown): RawRequest => ({
  method: "POST",
  path: "/",
  headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": target },
  body: JSON.stringify(body),
});

const modelExists = (name: string) =>
  new SageMakerClient(localClientConfig(plane)).send(new DescribeModelCommand({ ModelName: name })).then(
    () => true,
    () => false,
  );

const stored = (key: string) => plane.objects.find(bucket, key) !== undefined;

describe("the headers a signature must cover", () => {
  it("X-Amz-Target: a DescribeModel signed without it cannot be replayed as DeleteModel", async () => {
    await sendJson(
      plane,
      "SageMaker.CreateModel",
      {
        ModelName: "kept",
        ExecutionRoleArn: testExecutionRoleArn(),
        PrimaryContainer: { Image: localAdapterImageUri(plane) },
      },
      { key: admin, service: "sagemaker" },
    );
    expect(await modelExists("kept")).toBe(true);
    const describe = sageMakerCall("SageMaker.DescribeModel", { ModelName: "kept" });
    const { headers } = await signRequest(plane, describe, {
      key: admin,
      service: "sagemaker",
      unsignedHeaders: ["x-amz-target"],
    });
    expect(headers.authorization).toContain("SignedHeaders=content-type;host;x-amz-date,");
    const replayed = await forge(
      sendRaw(plane, { ...describe, headers: { ...headers, "x-amz-target": "SageMaker.DeleteModel" } }),
    );
    expect([replayed.status, jsonErrorCode(replayed)]).toEqual([400, "IncompleteSignatureException"]);
    expect(replayed.text).toContain("x-amz-target");
    expect(await modelExists("kept")).toBe(true);
  });

  it("X-Amz-Date", async () => {
    const answer = await forge(
      sendSigned(plane, sageMakerCall("SageMaker.ListEndpoints", {}), {
        key: admin,
        service: "sagemaker",
        unsignedHeaders: ["x-amz-date"],
      }),
    );
    expect([answer.status, jsonErrorCode(answer)]).toEqual([400, "IncompleteSignatureException"]);
    expect(answer.text).toContain("x-amz-date");
  });

  it("x-amz-content-sha256 on S3: a PUT signed for an empty payload cannot carry a body as UNSIGNED-PAYLOAD", async () => {
    const put: RawRequest = { method: "PUT", path: `/${bucket}/forged/unsigned-payload` };
    const { headers } = await signRequest(plane, put, { key: admin, service: "s3", payloadHash: null });
    expect(headers.authorization).toContain("SignedHeaders=host;x-amz-date,");
    const answer = await forge(
      sendRaw(plane, {
        ...put,
        headers: { ...headers, "x-amz-content-sha256": "UNSIGNED-PAYLOAD" },
        body: "an arbitrary body",
      }),
    );
    expect([answer.status, s3ErrorCode(answer)]).toEqual([403, "AccessDenied"]);
    expect(answer.text).toContain("There were headers present in the request which were not signed");
    expect(answer.text).toContain("<HeadersNotSigned>x-amz-content-sha256</HeadersNotSigned>");
    expect(stored("forged/unsigned-payload")).toBe(false);
  });

  it("every other x-amz-* header sent", async () => {
    const put: RawRequest = { method: "PUT", path: `/${bucket}/forged/extra-header`, body: "signed bytes" };
    const { headers } = await signRequest(plane, put, { key: admin, service: "s3" });
    const s3 = await forge(sendRaw(plane, { ...put, headers: { ...headers, "x-amz-meta-owner": "mallory" } }));
    expect([s3.status, s3ErrorCode(s3)]).toEqual([403, "AccessDenied"]);
    expect(s3.text).toContain("<HeadersNotSigned>x-amz-meta-owner</HeadersNotSigned>");
    expect(stored("forged/extra-header")).toBe(false);
    const request = sageMakerCall("SageMaker.ListEndpoints", {});
    const signed = await signRequest(plane, request, { key: admin, service: "sagemaker" });
    const json = await forge(sendRaw(plane, { ...request, headers: { ...signed.headers, "x-amz-extra": "1" } }));
    expect([json.status, jsonErrorCode(json)]).toEqual([400, "IncompleteSignatureException"]);
  });

  it("a JSON body whose signed x-amz-content-sha256 is UNSIGNED-PAYLOAD or another body's hash", async () => {
    const request = sageMakerCall("SageMaker.ListEndpoints", { MaxResults: 10 });
    for (const payloadHash of ["UNSIGNED-PAYLOAD", "STREAMING-AWS4-HMAC-SHA256-PAYLOAD"]) {
      const answer = await forge(sendSigned(plane, request, { key: admin, service: "sagemaker", payloadHash }));
      expect([answer.status, jsonErrorCode(answer)]).toEqual([400, "InvalidSignatureException"]);
    }
  });

  it("what the SDK's clients sign passes: every header they send is in SignedHeaders", async () => {
    await new SageMakerClient(localClientConfig(plane, "console")).send(new ListEndpointsCommand({}));
    const answer = await sendSigned(
      plane,
      { method: "PUT", path: `/${bucket}/build-sources/coverage.zip`, body: "zip" },
      { key: plane.credentials.keys.console, service: "s3" },
    );
    expect(answer.status).toBe(200);
  });
});

describe("the credential scope", () => {
  it("of another region, or of every region, is refused as AWS refuses it", async () => {
    for (const region of ["eu-west-1", "*"]) {
      const json = await forge(
        sendJson(plane, "SageMaker.ListEndpoints", {}, { key: admin, service: "sagemaker", region }),
      );
      expect([json.status, jsonErrorCode(json)]).toEqual([400, "InvalidSignatureException"]);
      expect(JSON.parse(json.text).message).toBe(`Credential should be scoped to a valid region, not '${region}'.`);
      const runtime = await forge(
        sendSigned(
          plane,
          { method: "POST", path: "/endpoints/dc-e/invocations", body: "{}" },
          { key: admin, service: "sagemaker", region },
        ),
      );
      expect([runtime.status, jsonErrorCode(runtime)]).toEqual([400, "InvalidSignatureException"]);
      const s3 = await forge(
        sendSigned(plane, { method: "GET", path: `/${bucket}/absent` }, { key: admin, service: "s3", region }),
      );
      expect([s3.status, s3ErrorCode(s3)]).toEqual([400, "AuthorizationHeaderMalformed"]);
      expect(s3.text.replaceAll("&apos;", "'")).toContain(
        `<Message>The authorization header is malformed; the region '${region}' is wrong; expecting 'us-east-1'</Message><Region>us-east-1</Region>`,
      );
    }
  });

  it("of another service than the one addressed is refused by each protocol", async () => {
    const s3 = await forge(
      sendSigned(plane, { method: "GET", path: `/${bucket}/absent` }, { key: admin, service: "sagemaker" }),
    );
    expect([s3.status, s3ErrorCode(s3)]).toEqual([400, "AuthorizationHeaderMalformed"]);
    const runtime = await forge(
      sendSigned(
        plane,
        { method: "POST", path: "/endpoints/dc-e/invocations", body: "{}" },
        { key: admin, service: "s3" },
      ),
    );
    expect([runtime.status, jsonErrorCode(runtime)]).toEqual([400, "InvalidSignatureException"]);
    const logs = await forge(
      sendSigned(
        plane,
        {
          method: "POST",
          path: "/",
          headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": "Logs_20140328.FilterLogEvents" },
          body: JSON.stringify({ logGroupName: "/aws/sagemaker/Endpoints/dc-e" }),
        },
        { key: admin, service: "sagemaker" },
      ),
    );
    expect([logs.status, jsonErrorCode(logs)]).toEqual([400, "InvalidSignatureException"]);
    expect(logs.text).toContain("Credential should be scoped to correct service: 'logs'");
  });
});
