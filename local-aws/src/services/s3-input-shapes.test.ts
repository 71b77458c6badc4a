import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import zlib from "node:zlib";
import {
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  type GetObjectCommandInput,
  HeadObjectCommand,
  ListBucketsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ControlPlane, startControlPlane } from "../control-plane.ts";
import type { AccessKey } from "../local-credentials.ts";
import { localClientConfig } from "../stack.ts";
import { type RawAnswer, type RawRequest, s3ErrorCode, sendSigned } from "../test-support/signed-request.ts";
import { testStackFixture } from "../test-support/stack-fixture.ts";

const LOCAL_ARTIFACT_BUCKET = testStackFixture().bucket;

/**
 * Every S3 request local S3 serves is bound and checked against S3's service model (generated/s3.ts) before it
 * runs, and answered as S3 answers a bad argument; members local mode cannot honour are refused, never ignored.
 */
const bucket = LOCAL_ARTIFACT_BUCKET;
let dataDir: string;
let plane: ControlPlane;
let admin: AccessKey;
let s3: S3Client;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-s3-input-shapes-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0, waitForEndpoints: false });
  admin = plane.credentials.keys.admin;
  s3 = new S3Client({ ...localClientConfig(plane, "admin"), forcePathStyle: true });
});

afterAll(async () => {
  s3?.destroy();
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const signed = (request: RawRequest) => sendSigned(plane, request, { key: admin, service: "s3" });

/** The error document's code, message and named argument, as S3 words them. */
function s3Error(answer: RawAnswer) {
  const field = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(answer.text)?.[1];
  return {
    status: answer.status,
    code: s3ErrorCode(answer),
    message: field("Message"),
    argument: field("ArgumentName") ?? field("Header"),
    value: field("ArgumentValue"),
  };
}

async function createUpload(key: string): Promise<string> {
  const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
  return UploadId!;
}

describe("local S3's inputs, checked against S3's service model", () => {
  it("refuses a max-keys that is not an integer with S3's InvalidArgument, naming it", async () => {
    const answer = await signed({ method: "GET", path: `/${bucket}`, query: "list-type=2&max-keys=ten" });
    expect(s3Error(answer)).toEqual({
      status: 400,
      code: "InvalidArgument",
      message: "Provided max-keys not an integer or within integer range",
      argument: "max-keys",
      value: "ten",
    });
  });

  it("refuses part number 10,001 (the API reference allows 1 to 10,000) and a part number that is not one", async () => {
    const uploadId = await createUpload("shapes/parts.bin");
    const part = (partNumber: string) =>
      signed({
        method: "PUT",
        path: `/${bucket}/shapes/parts.bin`,
        query: `partNumber=${partNumber}&uploadId=${uploadId}`,
        body: "part",
      });
    expect(s3Error(await part("10001"))).toEqual({
      status: 400,
      code: "InvalidArgument",
      message: "Part number must be an integer between 1 and 10000, inclusive",
      argument: "partNumber",
      value: "10001",
    });
    expect(s3Error(await part("0")).value).toBe("0");
    expect(s3Error(await part("one")).message).toBe("Provided partNumber not an integer or within integer range");
    expect((await part("10000")).status).toBe(200);
  });

  it("refuses a value outside a member's enum: S3's InvalidStorageClass, and InvalidArgument for the rest", async () => {
    await expect(
      s3.send(
        new PutObjectCommand({ Bucket: bucket, Key: "shapes/a.txt", Body: "a", StorageClass: "COLD" as "GLACIER" }),
      ),
    ).rejects.toMatchObject({
      name: "InvalidStorageClass",
      message: "The storage class you specified is not valid",
      $metadata: { httpStatusCode: 400 },
    });
    const answer = await signed({ method: "GET", path: `/${bucket}`, query: "list-type=2&encoding-type=base64" });
    expect(s3Error(answer)).toEqual({
      status: 400,
      code: "InvalidArgument",
      message: "Invalid Encoding Method specified in Request",
      argument: "encoding-type",
      value: "base64",
    });
    const mode = await signed({
      method: "GET",
      path: `/${bucket}/shapes/a.txt`,
      headers: { "x-amz-checksum-mode": "DISABLED" },
    });
    expect(s3Error(mode)).toMatchObject({
      code: "InvalidArgument",
      argument: "x-amz-checksum-mode",
      value: "DISABLED",
    });
    expect(s3Error(mode).message).toBe(
      "Invalid argument x-amz-checksum-mode: Member must satisfy enum value set: [ENABLED]",
    );
  });

  it("refuses a CompleteMultipartUpload body whose part number is not an integer as MalformedXML", async () => {
    const uploadId = await createUpload("shapes/complete.bin");
    const answer = await signed({
      method: "POST",
      path: `/${bucket}/shapes/complete.bin`,
      query: `uploadId=${uploadId}`,
      body: "<CompleteMultipartUpload><Part><PartNumber>first</PartNumber><ETag>x</ETag></Part></CompleteMultipartUpload>",
    });
    expect(s3Error(answer)).toMatchObject({ status: 400, code: "MalformedXML" });
  });

  it("serves what the SDK and lib-storage send by default (flexible checksums, checksum mode, aws-chunked)", async () => {
    const key = { Bucket: bucket, Key: "shapes/defaults.txt" };
    await s3.send(new PutObjectCommand({ ...key, Body: "defaults", ContentType: "text/plain" }));
    const got = await s3.send(new GetObjectCommand(key));
    expect(await got.Body?.transformToString()).toBe("defaults");
    expect((await s3.send(new HeadObjectCommand(key))).ContentType).toBe("text/plain");
    await s3.send(new PutObjectCommand({ ...key, Body: Readable.from([Buffer.from("streamed")]), ContentLength: 8 }));
    expect(await (await s3.send(new GetObjectCommand(key))).Body?.transformToString()).toBe("streamed");
    const large = Buffer.alloc(6 * 1024 * 1024, 7);
    await new Upload({
      client: s3,
      params: { ...key, Body: Readable.from([large]), ContentType: "application/zip" },
    }).done();
    const head = await s3.send(new HeadObjectCommand(key));
    expect(head.ContentLength).toBe(large.length);
    expect(head.ETag).toMatch(/-2"$/);
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: "shapes/defaults", MaxKeys: 1 }));
    expect(listed.Contents?.map((object) => object.Key)).toEqual(["shapes/defaults.txt"]);
  });

  it("verifies a Content-MD5: S3's BadDigest when the body does not match it, InvalidDigest when it is not one", async () => {
    const key = { Bucket: bucket, Key: "shapes/md5.txt" };
    const md5 = (text: string) => createHash("md5").update(text).digest("base64");
    await s3.send(new PutObjectCommand({ ...key, Body: "checked", ContentMD5: md5("checked") }));
    await expect(
      s3.send(new PutObjectCommand({ ...key, Body: "changed", ContentMD5: md5("checked") })),
    ).rejects.toMatchObject({
      name: "BadDigest",
    });
    await expect(
      s3.send(new PutObjectCommand({ ...key, Body: "changed", ContentMD5: "not-md5" })),
    ).rejects.toMatchObject({
      name: "InvalidDigest",
    });
    expect(await (await s3.send(new GetObjectCommand(key))).Body?.transformToString()).toBe("checked");
  });
});

describe("the checksum a PutObject or UploadPart gives for its body", () => {
  const crc32 = (text: string) => {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(zlib.crc32(text) >>> 0);
    return bytes.toString("base64");
  };
  const put = (key: string, body: string, headers: Record<string, string>, payloadHash?: string) =>
    sendSigned(
      plane,
      { method: "PUT", path: `/${bucket}/${key}`, headers, body },
      { key: admin, service: "s3", payloadHash },
    );
  /** The SDK's framing of a stream: one chunk, then the checksum as a trailer. */
  const trailed = (text: string, checksum: string) =>
    `${text.length.toString(16)}\r\n${text}\r\n0\r\nx-amz-checksum-crc32:${checksum}\r\n\r\n`;
  const trailerHeaders = (text: string) => ({
    "content-encoding": "aws-chunked",
    "x-amz-decoded-content-length": String(text.length),
    "x-amz-trailer": "x-amz-checksum-crc32",
    "x-amz-sdk-checksum-algorithm": "CRC32",
  });

  it("is verified in a header: S3's BadDigest when the body does not match it, and nothing is stored", async () => {
    expect((await put("shapes/crc.txt", "crc", { "x-amz-checksum-crc32": crc32("crc") })).status).toBe(200);
    const wrong = await put("shapes/crc-wrong.txt", "crc", { "x-amz-checksum-crc32": crc32("other") });
    expect(s3Error(wrong)).toMatchObject({
      status: 400,
      code: "BadDigest",
      message: "The CRC32 you specified did not match the calculated checksum.",
    });
    await expect(s3.send(new HeadObjectCommand({ Bucket: bucket, Key: "shapes/crc-wrong.txt" }))).rejects.toMatchObject(
      {
        $metadata: { httpStatusCode: 404 },
      },
    );
  });

  it("is verified in the aws-chunked trailer the SDK sends for a stream", async () => {
    const sent = (checksum: string) =>
      put(
        "shapes/trailer.txt",
        trailed("trailed", checksum),
        trailerHeaders("trailed"),
        "STREAMING-UNSIGNED-PAYLOAD-TRAILER",
      );
    expect((await sent(crc32("trailed"))).status).toBe(200);
    expect(s3Error(await sent(crc32("changed")))).toMatchObject({ status: 400, code: "BadDigest" });
    const key = { Bucket: bucket, Key: "shapes/sdk-stream.txt" };
    await s3.send(new PutObjectCommand({ ...key, Body: Readable.from([Buffer.from("sdk")]), ContentLength: 3 }));
    expect(await (await s3.send(new GetObjectCommand(key))).Body?.transformToString()).toBe("sdk");
  });

  it("is refused with NotImplemented in an algorithm local S3 does not compute", async () => {
    const answer = await put("shapes/crc32c.txt", "c", { "x-amz-checksum-crc32c": "AAAAAA==" });
    expect(s3Error(answer)).toMatchObject({ status: 501, code: "NotImplemented", argument: "x-amz-checksum-crc32c" });
  });
});

describe("members local S3 cannot honour", () => {
  it("are refused with S3's NotImplemented, naming the header, and nothing is stored", async () => {
    const key = { Bucket: bucket, Key: "shapes/refused.txt" };
    for (const extra of [
      { StorageClass: "GLACIER" as const },
      { ServerSideEncryption: "aws:kms" as const },
      { Tagging: "team=ml" },
      { CacheControl: "no-cache" },
      { WebsiteRedirectLocation: "/elsewhere" },
    ]) {
      await expect(s3.send(new PutObjectCommand({ ...key, Body: "x", ...extra }))).rejects.toMatchObject({
        name: "NotImplemented",
        $metadata: { httpStatusCode: 501 },
      });
    }
    const answer = await signed({
      method: "PUT",
      path: `/${bucket}/shapes/refused.txt`,
      headers: { "x-amz-storage-class": "GLACIER" },
      body: "x",
    });
    expect(s3Error(answer)).toMatchObject({ code: "NotImplemented", argument: "x-amz-storage-class" });
    await expect(s3.send(new HeadObjectCommand(key))).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
  });

  it("answer S3's own errors where S3 has one: ACLs disabled, no Object Lock, another bucket owner", async () => {
    const key = { Bucket: bucket, Key: "shapes/owned.txt" };
    await expect(s3.send(new PutObjectCommand({ ...key, Body: "x", ACL: "public-read" }))).rejects.toMatchObject({
      name: "AccessControlListNotSupported",
    });
    await expect(
      s3.send(new PutObjectCommand({ ...key, Body: "x", ObjectLockMode: "GOVERNANCE" })),
    ).rejects.toMatchObject({ name: "InvalidRequest", message: "Bucket is missing Object Lock Configuration" });
    await expect(
      s3.send(new PutObjectCommand({ ...key, Body: "x", ExpectedBucketOwner: "111122223333" })),
    ).rejects.toMatchObject({ name: "AccessDenied", $metadata: { httpStatusCode: 403 } });
    await s3.send(
      new PutObjectCommand({ ...key, Body: "x", ACL: "bucket-owner-full-control", StorageClass: "STANDARD" }),
    );
  });

  it("refuses UploadPart with a customer-provided key and CopyObject, which would otherwise store the wrong bytes", async () => {
    const uploadId = await createUpload("shapes/sse-c.bin");
    await expect(
      s3.send(
        new UploadPartCommand({
          Bucket: bucket,
          Key: "shapes/sse-c.bin",
          UploadId: uploadId,
          PartNumber: 1,
          Body: "x",
          SSECustomerAlgorithm: "AES256",
          SSECustomerKey: Buffer.alloc(32, 1).toString("base64"),
        }),
      ),
    ).rejects.toMatchObject({ name: "NotImplemented" });
    const copy = await signed({
      method: "PUT",
      path: `/${bucket}/shapes/copy.txt`,
      headers: { "x-amz-copy-source": `/${bucket}/shapes/owned.txt` },
    });
    expect(s3Error(copy)).toMatchObject({ status: 501, code: "NotImplemented" });
  });

  it("honours GetObject's and HeadObject's conditions: 304 Not Modified, 412 PreconditionFailed", async () => {
    const key = { Bucket: bucket, Key: "shapes/conditional.txt" };
    const { ETag } = await s3.send(new PutObjectCommand({ ...key, Body: "v1" }));
    const later = new Date(Date.now() + 60_000);
    const earlier = new Date(Date.now() - 60_000);
    const status = async (conditions: Omit<GetObjectCommandInput, "Bucket" | "Key">) => {
      try {
        const got = await s3.send(new GetObjectCommand({ ...key, ...conditions }));
        await got.Body?.transformToString();
        return got.$metadata.httpStatusCode;
      } catch (error) {
        return (error as { $metadata: { httpStatusCode: number } }).$metadata.httpStatusCode;
      }
    };
    expect(await status({ IfMatch: ETag })).toBe(200);
    expect(await status({ IfMatch: '"other"' })).toBe(412);
    expect(await status({ IfNoneMatch: ETag })).toBe(304);
    expect(await status({ IfNoneMatch: '"other"', IfModifiedSince: later })).toBe(200);
    expect(await status({ IfModifiedSince: later })).toBe(304);
    expect(await status({ IfModifiedSince: earlier })).toBe(200);
    expect(await status({ IfUnmodifiedSince: earlier })).toBe(412);
    expect(await status({ IfMatch: ETag, IfUnmodifiedSince: earlier })).toBe(200);
    await expect(s3.send(new HeadObjectCommand({ ...key, IfNoneMatch: ETag }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 304 },
    });
  });

  it("honours ListBuckets' prefix and paging, and refuses a CreateBucketConfiguration it would not act on", async () => {
    for (const name of ["shapes-a", "shapes-b"]) await s3.send(new CreateBucketCommand({ Bucket: name }));
    const first = await s3.send(new ListBucketsCommand({ Prefix: "shapes-", MaxBuckets: 1 }));
    expect(first.Buckets?.map((b) => b.Name)).toEqual(["shapes-a"]);
    const next = await s3.send(
      new ListBucketsCommand({ Prefix: "shapes-", MaxBuckets: 1, ContinuationToken: first.ContinuationToken }),
    );
    expect(next.Buckets?.map((b) => b.Name)).toEqual(["shapes-b"]);
    expect(next.ContinuationToken).toBeUndefined();
    await expect(
      s3.send(
        new CreateBucketCommand({
          Bucket: "shapes-c",
          CreateBucketConfiguration: { LocationConstraint: "eu-west-1" },
        }),
      ),
    ).rejects.toMatchObject({ name: "NotImplemented" });
  });

  it("honours GetObject's response-* overrides and ListObjectsV2's encoding-type=url", async () => {
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: "shapes/with space.txt", Body: "x" }));
    const got = await s3.send(
      new GetObjectCommand({ Bucket: bucket, Key: "shapes/with space.txt", ResponseContentType: "text/csv" }),
    );
    expect(got.ContentType).toBe("text/csv");
    const answer = await signed({
      method: "GET",
      path: `/${bucket}`,
      query: "list-type=2&prefix=shapes%2Fwith&encoding-type=url",
    });
    expect(answer.text).toContain("<Key>shapes%2Fwith%20space.txt</Key>");
    expect(answer.text).toContain("<EncodingType>url</EncodingType>");
  });
});
