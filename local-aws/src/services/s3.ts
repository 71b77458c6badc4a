import fs from "node:fs";
import type { ServerResponse } from "node:http";
import type { RequestAuthorizer } from "../iam/request-authorizer.ts";
import type { ObjectStore, StoredObject } from "../object-store.ts";
import { AwsError } from "../wire/aws-error.ts";
import { type AwsRequest, decodeUriComponent, readBody } from "../wire/request.ts";
import { sendS3Error } from "../wire/s3-errors.ts";
import { s3RequestBody } from "../wire/s3-payload.ts";
import { malformedXml, parseCompletedParts, xmlDocument } from "../wire/xml.ts";
import { unservedSubresource } from "./s3-subresources.ts";

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

function userMetadata(request: AwsRequest): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.startsWith("x-amz-meta-") && typeof value === "string") metadata[name.slice(11)] = value;
  }
  return metadata;
}

async function route(store: ObjectStore, iam: RequestAuthorizer, request: AwsRequest, response: ServerResponse) {
  const { bucket, key } = locate(request);
  const query = request.url.searchParams;
  const method = request.method;
  iam.s3(request.auth.principal, request.region, { method, bucket, key, query });
  const unserved = bucket ? unservedSubresource(method, key !== "", query) : null;
  if (unserved) {
    throw new AwsError(
      "NotImplemented",
      `Local mode does not serve this S3 operation (${method} with the ?${unserved} subresource).`,
      501,
    );
  }
  if (!bucket) {
    if (method !== "GET")
      throw new AwsError("MethodNotAllowed", "The specified method is not allowed against this resource.", 405);
    const buckets = store.listBuckets().map((b) => ({ Name: b.name, CreationDate: b.createdAt.toISOString() }));
    return sendXml(response, 200, xmlDocument("ListAllMyBucketsResult", { Buckets: { Bucket: buckets } }));
  }
  if (!key) {
    if (method === "PUT") {
      store.createBucket(bucket);
      return send(response, 200, { location: `/${bucket}` });
    }
    if (method === "HEAD") {
      store.requireBucket(bucket);
      return send(response, 200, { "x-amz-bucket-region": request.region });
    }
    if (method === "GET" && query.has("location")) {
      store.requireBucket(bucket);
      return sendXml(response, 200, xmlDocument("LocationConstraint", {}));
    }
    if (method === "GET") return listObjectsV2(store, bucket, query, response);
    throw new AwsError("MethodNotAllowed", "The specified method is not allowed against this resource.", 405);
  }
  const uploadId = query.get("uploadId");
  if (method === "POST" && query.has("uploads")) {
    const id = store.createUpload(bucket, key, headerValue(request, "content-type"), userMetadata(request));
    return sendXml(
      response,
      200,
      xmlDocument("InitiateMultipartUploadResult", { Bucket: bucket, Key: key, UploadId: id }),
    );
  }
  if (method === "PUT" && uploadId) {
    const etag = await store.uploadPart(bucket, key, uploadId, Number(query.get("partNumber")), s3RequestBody(request));
    return send(response, 200, { etag: `"${etag}"` });
  }
  if (method === "POST" && uploadId) {
    const xml = await readBody(s3RequestBody(request), 1024 * 1024, malformedXml);
    const parts = parseCompletedParts(xml.toString("utf8"));
    const object = await store.completeUpload(bucket, key, uploadId, parts);
    return sendXml(
      response,
      200,
      xmlDocument("CompleteMultipartUploadResult", {
        Location: `${request.url.origin}/${bucket}/${encodeURI(key)}`,
        Bucket: bucket,
        Key: key,
        ETag: `"${object.etag}"`,
      }),
    );
  }
  if (method === "DELETE" && uploadId) {
    store.abortUpload(bucket, key, uploadId);
    return send(response, 204, {});
  }
  if (method === "PUT") {
    const object = await store.putObject(bucket, key, s3RequestBody(request), {
      contentType: headerValue(request, "content-type"),
      metadata: userMetadata(request),
    });
    return send(response, 200, { etag: `"${object.etag}"` });
  }
  if (method === "GET" || method === "HEAD") {
    return getObject(existingObject(store, iam, request, bucket, key), request, response);
  }
  if (method === "DELETE") {
    store.deleteObject(bucket, key);
    return send(response, 204, {});
  }
  throw new AwsError("MethodNotAllowed", "The specified method is not allowed against this resource.", 405);
}

/** The object, or S3's answer for a key that is not there: NoSuchKey only to a caller that may list the key. */
function existingObject(store: ObjectStore, iam: RequestAuthorizer, request: AwsRequest, bucket: string, key: string) {
  store.requireBucket(bucket);
  const object = store.find(bucket, key);
  if (object) return object;
  iam.s3MissingKey(request.auth.principal, request.region, bucket, key);
  return store.getObject(bucket, key);
}

function headerValue(request: AwsRequest, name: string): string | null {
  const value = request.headers[name];
  return typeof value === "string" ? value : null;
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

function getObject(object: StoredObject, request: AwsRequest, response: ServerResponse) {
  const headers = objectHeaders(object);
  const range = /^bytes=(\d*)-(\d*)$/.exec(String(request.headers.range ?? ""));
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

function listObjectsV2(store: ObjectStore, bucket: string, query: URLSearchParams, response: ServerResponse) {
  const prefix = query.get("prefix") ?? "";
  const delimiter = query.get("delimiter") ?? "";
  const maxKeys = Math.min(Math.max(Number(query.get("max-keys") ?? 1000) || 0, 0), 1000);
  const token = query.get("continuation-token");
  const startAfter = token ? Buffer.from(token, "base64url").toString("utf8") : (query.get("start-after") ?? "");
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
    Prefix: prefix,
    Delimiter: delimiter || undefined,
    MaxKeys: maxKeys,
    KeyCount: contents.length + commonPrefixes.length,
    IsTruncated: truncated,
    ContinuationToken: token ?? undefined,
    NextContinuationToken: truncated ? Buffer.from(lastKey, "utf8").toString("base64url") : undefined,
    StartAfter: query.get("start-after") ?? undefined,
    Contents: contents.map((object) => ({
      Key: object.key,
      LastModified: object.lastModified.toISOString(),
      ETag: `"${object.etag}"`,
      Size: object.size,
      StorageClass: "STANDARD",
    })),
    CommonPrefixes: commonPrefixes.map((common) => ({ Prefix: common })),
  });
  sendXml(response, 200, body);
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
