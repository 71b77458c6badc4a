import fs from "node:fs";
import type { ServerResponse } from "node:http";
import type { RequestAuthorizer } from "../iam/request-authorizer.ts";
import type { ObjectStore, StoredObject } from "../object-store.ts";
import { AwsError } from "../wire/aws-error.ts";
import { type AwsRequest, decodeUriComponent, readBody } from "../wire/request.ts";
import { claimedChecksum } from "../wire/s3-checksums.ts";
import { sendS3Error } from "../wire/s3-errors.ts";
import { s3Input } from "../wire/s3-input.ts";
import { s3RequestBody } from "../wire/s3-payload.ts";
import { malformedXml, parseCompletedMultipartUpload, xmlDocument } from "../wire/xml.ts";
import { notModified, type ReadConditions } from "./s3-conditions.ts";
import { type S3Operation, s3Operation } from "./s3-operations.ts";
import { requirePartNumber } from "./s3-rules.ts";
import { refuseUnservedMembers } from "./s3-served.ts";

/**
 * S3's REST-XML protocol for the operations the console and `@aws-sdk/lib-storage` use, path-style
 * (`/bucket/key`), or virtual-hosted when the Host header is `<bucket>.localhost`.
 */
export async function handleS3(
  store: ObjectStore,
  iam: RequestAuthorizer,
  request: AwsRequest,
  response: ServerResponse,
) {
  try {
    await route(store, iam, request, response);
  } catch (error) {
    sendS3Error(response, request.method, error);
  }
}

/** Bucket and key from the path as sent (not dot-normalised, so `a/../b` stays a key S3 would store literally). */
function locate(request: AwsRequest): { bucket: string; key: string } {
  const host = String(request.headers.host ?? "").split(":")[0] ?? "";
  if (host.endsWith(".localhost")) {
    return { bucket: host.slice(0, -".localhost".length), key: decodeUriComponent(request.path.slice(1)) };
  }
  const [, bucket = "", ...rest] = request.path.split("/");
  return { bucket: decodeUriComponent(bucket), key: decodeUriComponent(rest.join("/")) };
}

/** Input members as the handlers read them (the shape has checked each one's type). */
type S3Input = Record<string, unknown> &
  ReadConditions & {
    Bucket: string;
    Key: string;
    UploadId?: string;
    PartNumber?: number;
    ContentType?: string;
    ContentMD5?: string;
    Metadata?: Record<string, string>;
    MultipartUpload?: { Parts?: Array<{ PartNumber?: number; ETag?: string }> };
    Prefix?: string;
    Delimiter?: string;
    MaxKeys?: number;
    MaxBuckets?: number;
    ContinuationToken?: string;
    StartAfter?: string;
    EncodingType?: string;
    Range?: string;
    ResponseExpires?: Date;
  };

async function route(store: ObjectStore, iam: RequestAuthorizer, request: AwsRequest, response: ServerResponse) {
  const target = locate(request);
  const { bucket, key } = target;
  const query = request.url.searchParams;
  const method = request.method;
  iam.s3(request.auth.principal, request.region, { method, bucket, key, query });
  const operation = s3Operation(method, target, query, request.headers);
  const payload = operation === "CompleteMultipartUpload" ? await completedParts(request) : undefined;
  const input = s3Input(operation, { labels: { Bucket: bucket, Key: key }, query, headers: request.headers }, payload);
  refuseUnservedMembers(operation, input);
  return OPERATIONS[operation](input as S3Input, { store, iam, request, response });
}

/** A PutObject or UploadPart body, checked against the Content-MD5 and the checksum the request gives. */
function objectBody(request: AwsRequest, input: S3Input) {
  const trailer = request.headers["x-amz-trailer"];
  return s3RequestBody(request, {
    contentMd5: input.ContentMD5,
    checksum: claimedChecksum(input, typeof trailer === "string" ? trailer : undefined),
  });
}

async function completedParts(request: AwsRequest) {
  const xml = await readBody(s3RequestBody(request), 1024 * 1024, malformedXml);
  return parseCompletedMultipartUpload(xml.toString("utf8"));
}

interface S3Context {
  store: ObjectStore;
  iam: RequestAuthorizer;
  request: AwsRequest;
  response: ServerResponse;
}

const OPERATIONS: Record<S3Operation, (input: S3Input, context: S3Context) => unknown> = {
  ListBuckets: (input, { store, response }) => listBuckets(store, input, response),
  CreateBucket: (input, { store, request, response }) => {
    if (Number(request.headers["content-length"] ?? 0) > 0 || request.headers["transfer-encoding"]) {
      throw new AwsError(
        "NotImplemented",
        "Local mode does not serve CreateBucketConfiguration: a local bucket is a general purpose bucket in the caller's Region.",
        501,
      );
    }
    store.createBucket(input.Bucket);
    send(response, 200, { location: `/${input.Bucket}` });
  },
  HeadBucket: (input, { store, request, response }) => {
    store.requireBucket(input.Bucket);
    send(response, 200, { "x-amz-bucket-region": request.region });
  },
  GetBucketLocation: (input, { store, response }) => {
    store.requireBucket(input.Bucket);
    sendXml(response, 200, xmlDocument("LocationConstraint", {}));
  },
  ListObjectsV2: (input, { store, response }) => listObjectsV2(store, input, response),
  CreateMultipartUpload: (input, { store, response }) => {
    const id = store.createUpload(input.Bucket, input.Key, input.ContentType ?? null, input.Metadata ?? {});
    sendXml(
      response,
      200,
      xmlDocument("InitiateMultipartUploadResult", { Bucket: input.Bucket, Key: input.Key, UploadId: id }),
    );
  },
  UploadPart: async (input, { store, request, response }) => {
    requirePartNumber(input.PartNumber!, "partNumber");
    const body = objectBody(request, input);
    const etag = await store.uploadPart(input.Bucket, input.Key, input.UploadId!, input.PartNumber!, body);
    send(response, 200, { etag: `"${etag}"` });
  },
  CompleteMultipartUpload: async (input, { store, request, response }) => {
    const { Parts = [] } = input.MultipartUpload ?? {};
    const parts = Parts.map((part) => ({ partNumber: part.PartNumber ?? Number.NaN, etag: part.ETag ?? "" }));
    const object = await store.completeUpload(input.Bucket, input.Key, input.UploadId!, parts);
    sendXml(
      response,
      200,
      xmlDocument("CompleteMultipartUploadResult", {
        Location: `${request.url.origin}/${input.Bucket}/${encodeURI(input.Key)}`,
        Bucket: input.Bucket,
        Key: input.Key,
        ETag: `"${object.etag}"`,
      }),
    );
  },
  AbortMultipartUpload: (input, { store, response }) => {
    store.abortUpload(input.Bucket, input.Key, input.UploadId!);
    send(response, 204, {});
  },
  PutObject: async (input, { store, request, response }) => {
    const object = await store.putObject(input.Bucket, input.Key, objectBody(request, input), {
      contentType: input.ContentType ?? null,
      metadata: input.Metadata ?? {},
    });
    send(response, 200, { etag: `"${object.etag}"` });
  },
  GetObject: (input, { store, iam, request, response }) =>
    getObject(existingObject(store, iam, request, input.Bucket, input.Key), input, request, response),
  HeadObject: (input, { store, iam, request, response }) =>
    getObject(existingObject(store, iam, request, input.Bucket, input.Key), input, request, response),
  DeleteObject: (input, { store, response }) => {
    store.deleteObject(input.Bucket, input.Key);
    send(response, 204, {});
  },
};

/** The object, or S3's answer for a key that is not there: NoSuchKey only to a caller that may list the key. */
function existingObject(store: ObjectStore, iam: RequestAuthorizer, request: AwsRequest, bucket: string, key: string) {
  store.requireBucket(bucket);
  const object = store.find(bucket, key);
  if (object) return object;
  iam.s3MissingKey(request.auth.principal, request.region, bucket, key);
  return store.getObject(bucket, key);
}

function objectHeaders(object: StoredObject): Record<string, string | number> {
  const headers: Record<string, string | number> = {
    etag: `"${object.etag}"`,
    "last-modified": object.lastModified.toUTCString(),
    "content-type": object.contentType ?? "application/octet-stream",
    "accept-ranges": "bytes",
    // "x-amz-request-id: A value created by Amazon S3 that uniquely identifies the request" (Common Response Headers).
    "x-amz-request-id": crypto.randomUUID(),
  };
  for (const [name, value] of Object.entries(object.metadata)) headers[`x-amz-meta-${name}`] = value;
  return headers;
}

/** GetObject's response-* parameters: "Sets the <header> header of the response." */
const RESPONSE_OVERRIDES = {
  ResponseCacheControl: "cache-control",
  ResponseContentDisposition: "content-disposition",
  ResponseContentEncoding: "content-encoding",
  ResponseContentLanguage: "content-language",
  ResponseContentType: "content-type",
} as const;

function getObject(object: StoredObject, input: S3Input, request: AwsRequest, response: ServerResponse) {
  const headers = objectHeaders(object);
  if (notModified(object, input)) {
    send(response, 304, { etag: `"${object.etag}"`, "last-modified": object.lastModified.toUTCString() });
    return;
  }
  for (const [member, header] of Object.entries(RESPONSE_OVERRIDES)) {
    if (typeof input[member] === "string") headers[header] = input[member];
  }
  if (input.ResponseExpires) headers.expires = input.ResponseExpires.toUTCString();
  const range = /^bytes=(\d*)-(\d*)$/.exec(input.Range ?? "");
  let start = 0;
  let end = object.size - 1;
  let status = 200;
  if (range && (range[1] || range[2])) {
    if (range[1]) {
      start = Number(range[1]);
      end = range[2] ? Math.min(Number(range[2]), object.size - 1) : object.size - 1;
    } else {
      start = Math.max(0, object.size - Number(range[2]));
    }
    if (start >= object.size || start > end) {
      throw new AwsError("InvalidRange", "The requested range is not satisfiable", 416);
    }
    status = 206;
    headers["content-range"] = `bytes ${start}-${end}/${object.size}`;
  }
  headers["content-length"] = object.size === 0 ? 0 : end - start + 1;
  response.writeHead(status, headers);
  if (request.method === "HEAD" || object.size === 0) {
    response.end();
    return;
  }
  fs.createReadStream(object.file, { start, end }).pipe(response);
}

function listObjectsV2(store: ObjectStore, input: S3Input, response: ServerResponse) {
  const bucket = input.Bucket;
  const prefix = input.Prefix ?? "";
  const delimiter = input.Delimiter ?? "";
  // MaxKeys: "By default, the action returns up to 1,000 key names. The response might contain fewer keys but will
  // never contain more."
  const maxKeys = Math.min(Math.max(input.MaxKeys ?? 1000, 0), 1000);
  const token = input.ContinuationToken;
  const requestedStart = input.StartAfter;
  const startAfter = token ? Buffer.from(token, "base64url").toString("utf8") : (requestedStart ?? "");
  // EncodingType url: object key names in the response are URL-encoded, as the request asks.
  const encoded = (text: string) => (input.EncodingType === "url" ? encodeURIComponent(text) : text);
  const candidates = store.list(bucket, prefix, startAfter, 100_000);
  const contents: StoredObject[] = [];
  const commonPrefixes: string[] = [];
  let lastKey = "";
  let truncated = false;
  for (const object of candidates) {
    if (delimiter) {
      const cut = object.key.indexOf(delimiter, prefix.length);
      if (cut >= 0) {
        const common = object.key.slice(0, cut + delimiter.length);
        if (commonPrefixes.at(-1) === common) continue;
        if (contents.length + commonPrefixes.length >= maxKeys) {
          truncated = true;
          break;
        }
        commonPrefixes.push(common);
        lastKey = `${common}\uffff`;
        continue;
      }
    }
    if (contents.length + commonPrefixes.length >= maxKeys) {
      truncated = true;
      break;
    }
    contents.push(object);
    lastKey = object.key;
  }
  const body = xmlDocument("ListBucketResult", {
    Name: bucket,
    Prefix: encoded(prefix),
    Delimiter: delimiter ? encoded(delimiter) : undefined,
    MaxKeys: maxKeys,
    EncodingType: input.EncodingType,
    KeyCount: contents.length + commonPrefixes.length,
    IsTruncated: truncated,
    ContinuationToken: token,
    NextContinuationToken: truncated ? Buffer.from(lastKey, "utf8").toString("base64url") : undefined,
    StartAfter: requestedStart === undefined ? undefined : encoded(requestedStart),
    Contents: contents.map((object) => ({
      Key: encoded(object.key),
      LastModified: object.lastModified.toISOString(),
      ETag: `"${object.etag}"`,
      Size: object.size,
      StorageClass: "STANDARD",
    })),
    CommonPrefixes: commonPrefixes.map((common) => ({ Prefix: encoded(common) })),
  });
  sendXml(response, 200, body);
}

/** ListBuckets by name, from after the continuation token, MaxBuckets a page (without it, every bucket). */
function listBuckets(store: ObjectStore, input: S3Input, response: ServerResponse) {
  const prefix = input.Prefix ?? "";
  const token = input.ContinuationToken;
  const after = token ? Buffer.from(token, "base64url").toString("utf8") : "";
  const matching = store
    .listBuckets()
    .filter((b) => b.name.startsWith(prefix) && b.name > after)
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  const page = matching.slice(0, input.MaxBuckets ?? matching.length);
  const last = page.at(-1);
  const more = matching.length > page.length && last !== undefined;
  sendXml(
    response,
    200,
    xmlDocument("ListAllMyBucketsResult", {
      Buckets: { Bucket: page.map((b) => ({ Name: b.name, CreationDate: b.createdAt.toISOString() })) },
      ContinuationToken: more ? Buffer.from(last.name, "utf8").toString("base64url") : undefined,
      Prefix: input.Prefix,
    }),
  );
}

function send(response: ServerResponse, status: number, headers: Record<string, string>) {
  response.writeHead(status, { ...headers, "content-length": 0, "x-amz-request-id": crypto.randomUUID() });
  response.end();
}

function sendXml(response: ServerResponse, status: number, xml: string) {
  response.writeHead(status, {
    "content-type": "application/xml",
    "content-length": Buffer.byteLength(xml),
    "x-amz-request-id": crypto.randomUUID(),
  });
  response.end(xml);
}
