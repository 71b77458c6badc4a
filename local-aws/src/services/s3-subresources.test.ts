import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import {
  GetBucketAclCommand,
  GetBucketLocationCommand,
  GetBucketVersioningCommand,
  GetObjectAclCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutBucketTaggingCommand,
  PutObjectTaggingCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLocalDatabase } from "../database.ts";
import { LocalAuthorizer } from "../iam/authorize.ts";
import { RequestAuthorizer } from "../iam/request-authorizer.ts";
import { loadStackPolicies } from "../iam/stack-policies.ts";
import { ObjectStore } from "../object-store.ts";
import { testStackFixture } from "../test-support/stack-fixture.ts";
import { type AwsRequest, LOCAL_ACCOUNT_ID } from "../wire/request.ts";
import { handleS3 } from "./s3.ts";

/**
 * Local S3 serves a few operations. A request for any other (a subresource such as `?acl`, `?versioning` or
 * `?tagging`, or `GET ?uploads`) is refused with S3's `NotImplemented`, never answered as the operation its method
 * and path would otherwise select (a ListObjectsV2 for `GET /bucket?acl`).
 */
const bucket = "decision-console-local";
const REGION = "us-east-1";
const policies = loadStackPolicies(testStackFixture().stack, {
  accountId: LOCAL_ACCOUNT_ID,
  region: REGION,
  namePrefix: "dc-",
  bucketName: bucket,
});
const iam = new RequestAuthorizer(new LocalAuthorizer(policies, LOCAL_ACCOUNT_ID), () => ({
  region: REGION,
  accountId: LOCAL_ACCOUNT_ID,
  sageMakerTags: () => ({}),
  scalableTarget: () => undefined,
}));

let dir: string;
let store: ObjectStore;
let server: http.Server;
let s3: S3Client;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "s3-subresources-"));
  store = new ObjectStore(openLocalDatabase(dir), dir);
  store.createBucket(bucket);
  await store.putObject(bucket, "models/a.gguf", Buffer.from("gguf"));
  server = http.createServer((raw, response) => {
    const rawUrl = raw.url ?? "/";
    const request = {
      method: raw.method ?? "GET",
      url: new URL(rawUrl, "http://127.0.0.1"),
      path: rawUrl.split("?")[0] ?? "/",
      headers: raw.headers,
      region: REGION,
      signingService: "s3",
      auth: { principal: { kind: "admin" } } as AwsRequest["auth"],
      raw,
    } satisfies AwsRequest;
    void handleS3(store, iam, request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  s3 = new S3Client({
    region: REGION,
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forcePathStyle: true,
    credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "unused" },
    maxAttempts: 1,
  });
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

async function outcome(command: { input: object }): Promise<string> {
  try {
    // Each command is one S3Client accepts; send's overloads cannot take their union.
    await s3.send(command as GetObjectCommand);
    return "served";
  } catch (error) {
    const failure = error as { $metadata?: { httpStatusCode?: number }; Code?: string; name?: string };
    return `${failure.$metadata?.httpStatusCode} ${failure.Code ?? failure.name}`;
  }
}

describe("local S3 and the operations it does not serve", () => {
  it("refuses bucket and object subresources with 501 NotImplemented", async () => {
    expect(await outcome(new GetBucketAclCommand({ Bucket: bucket }))).toBe("501 NotImplemented");
    expect(await outcome(new GetBucketVersioningCommand({ Bucket: bucket }))).toBe("501 NotImplemented");
    expect(await outcome(new ListMultipartUploadsCommand({ Bucket: bucket }))).toBe("501 NotImplemented");
    expect(
      await outcome(new PutBucketTaggingCommand({ Bucket: bucket, Tagging: { TagSet: [{ Key: "k", Value: "v" }] } })),
    ).toBe("501 NotImplemented");
    expect(await outcome(new GetObjectAclCommand({ Bucket: bucket, Key: "models/a.gguf" }))).toBe("501 NotImplemented");
    expect(
      await outcome(
        new PutObjectTaggingCommand({
          Bucket: bucket,
          Key: "models/a.gguf",
          Tagging: { TagSet: [{ Key: "k", Value: "v" }] },
        }),
      ),
    ).toBe("501 NotImplemented");
    // Nothing was stored over the object by the refused PUT.
    const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: "models/a.gguf" }));
    expect(await object.Body?.transformToString()).toBe("gguf");
  });

  it("still serves what it serves", async () => {
    expect(await outcome(new ListObjectsV2Command({ Bucket: bucket }))).toBe("served");
    expect(await outcome(new GetBucketLocationCommand({ Bucket: bucket }))).toBe("served");
    expect(await outcome(new GetObjectCommand({ Bucket: bucket, Key: "models/a.gguf" }))).toBe("served");
  });
});
