import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLocalDatabase } from "../database.ts";
import { LocalAuthorizer } from "../iam/authorize.ts";
import { RequestAuthorizer } from "../iam/request-authorizer.ts";
import { loadStackPolicies } from "../iam/stack-policies.ts";
import type { LocalPrincipal } from "../local-credentials.ts";
import { ObjectStore } from "../object-store.ts";
import { testExecutionRoleArn, testStackFixture } from "../test-support/stack-fixture.ts";
import { type AwsRequest, LOCAL_ACCOUNT_ID } from "../wire/request.ts";
import { handleS3 } from "./s3.ts";

/**
 * S3 API Reference, GetObject and HeadObject: "If you have the s3:ListBucket permission on the bucket, Amazon S3
 * returns an HTTP status code 404 Not Found error. If you don't have the s3:ListBucket permission, Amazon S3 returns
 * an HTTP status code 403 Access Denied error." Local S3's handler, under the policies the stack synthesises, for
 * every kind of principal (each served on its own port, its signature taken as checked).
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
const principals = {
  admin: { kind: "admin" },
  console: { kind: "console" },
  executionRole: { kind: "execution-role", roleArn: testExecutionRoleArn() },
  imageBuild: { kind: "codebuild", project: "decision-console-image-build", buildId: "decision-console-image-build:t" },
} satisfies Record<string, LocalPrincipal>;
type Who = keyof typeof principals;

let dir: string;
let store: ObjectStore;
const servers: http.Server[] = [];
const clients = {} as Record<Who, S3Client>;

async function serve(principal: LocalPrincipal): Promise<string> {
  const server = http.createServer((raw, response) => {
    const rawUrl = raw.url ?? "/";
    const request = {
      method: raw.method ?? "GET",
      url: new URL(rawUrl, "http://127.0.0.1"),
      path: rawUrl.split("?")[0] ?? "/",
      headers: raw.headers,
      region: REGION,
      signingService: "s3",
      auth: { principal } as AwsRequest["auth"],
      raw,
    } satisfies AwsRequest;
    void handleS3(store, iam, request, response);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "s3-missing-key-"));
  store = new ObjectStore(openLocalDatabase(dir), dir);
  store.createBucket(bucket);
  await store.putObject(bucket, "async/dc-a/in/present.json", Buffer.from("{}"));
  for (const [who, principal] of Object.entries(principals) as [Who, LocalPrincipal][]) {
    clients[who] = new S3Client({
      region: REGION,
      endpoint: await serve(principal),
      forcePathStyle: true,
      credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "unused" },
      maxAttempts: 1,
    });
  }
});

afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** What GetObject and HeadObject of the key answer the principal: the status and the error's code. */
async function missing(who: Who, key: string) {
  const seen = async (command: GetObjectCommand | HeadObjectCommand) => {
    try {
      await clients[who].send(command as GetObjectCommand);
      return "found";
    } catch (error) {
      const failure = error as { $metadata?: { httpStatusCode?: number }; Code?: string; name?: string };
      return `${failure.$metadata?.httpStatusCode} ${failure.Code ?? failure.name}`;
    }
  };
  return {
    get: await seen(new GetObjectCommand({ Bucket: bucket, Key: key })),
    head: (await seen(new HeadObjectCommand({ Bucket: bucket, Key: key }))).split(" ")[0],
  };
}

const notFound = { get: "404 NoSuchKey", head: "404" };
const denied = { get: "403 AccessDenied", head: "403" };

describe("a key that does not exist, as local S3 answers it", () => {
  it("is 404 to a principal that may list its prefix (s3:ListBucket with the s3:prefix condition met by the key)", async () => {
    expect(await missing("executionRole", "models/absent/model.gguf")).toEqual(notFound);
    expect(await missing("imageBuild", "build-sources/absent.zip")).toEqual(notFound);
    expect(await missing("console", "batch/absent/in.jsonl")).toEqual(notFound);
  });

  it("is 403 AccessDenied, naming s3:ListBucket, to a principal that may read the key but not list it", async () => {
    // The execution role reads async/*/in/* (ReadAsyncRequests) but lists none of async/.
    expect(await missing("executionRole", "async/dc-a/in/absent.json")).toEqual(denied);
    await expect(
      clients.executionRole.send(new GetObjectCommand({ Bucket: bucket, Key: "async/dc-a/in/absent.json" })),
    ).rejects.toMatchObject({
      message: expect.stringContaining(
        `is not authorized to perform: s3:ListBucket on resource: "arn:aws:s3:::${bucket}"`,
      ),
    });
    // The object that is there is read as before.
    const present = await clients.executionRole.send(
      new GetObjectCommand({ Bucket: bucket, Key: "async/dc-a/in/present.json" }),
    );
    expect(await present.Body?.transformToString()).toBe("{}");
  });

  it("is 404 to admin, whom no policy restricts", async () => {
    expect(await missing("admin", "async/dc-a/in/absent.json")).toEqual(notFound);
    expect(await missing("admin", "anywhere/absent")).toEqual(notFound);
  });
});

describe("the console's asynchronous results", () => {
  it("are listed and read only under async/<endpoint>/out/ and failed/: a missing answer is 404 there", async () => {
    expect(await missing("console", "async/dc-a/out/absent.out")).toEqual(notFound);
    expect(await missing("console", "async/dc-a/failed/absent-error.out")).toEqual(notFound);
    const listed = await clients.console.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: "async/dc-a/out/absent.out", MaxKeys: 1 }),
    );
    expect(listed.KeyCount).toBe(0);
  });

  it("do not include the requests under in/, which the console writes but neither reads nor lists", async () => {
    expect(await missing("console", "async/dc-a/in/absent.json")).toEqual(denied);
    await expect(
      clients.console.send(new GetObjectCommand({ Bucket: bucket, Key: "async/dc-a/in/present.json" })),
    ).rejects.toMatchObject({ name: "AccessDenied" });
    await expect(
      clients.console.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: "async/dc-a/in/" })),
    ).rejects.toMatchObject({ name: "AccessDenied" });
  });
});
