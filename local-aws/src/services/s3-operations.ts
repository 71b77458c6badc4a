import type { IncomingHttpHeaders } from "node:http";
import { AwsError } from "../wire/aws-error.ts";
import type { S3InputShapesOperation } from "../wire/generated/s3.ts";
import { unservedSubresource } from "./s3-subresources.ts";

export type S3Operation = S3InputShapesOperation;

const methodNotAllowed = () =>
  new AwsError("MethodNotAllowed", "The specified method is not allowed against this resource.", 405);

const notServed = (what: string) => new AwsError("NotImplemented", `Local mode does not serve ${what}.`, 501);

/**
 * The S3 operation a request selects by its method, its target (the service, a bucket or an object) and its query
 * (each operation's `requestUri` in the service model); one local mode does not serve is refused with 501.
 */
export function s3Operation(
  method: string,
  target: { bucket: string; key: string },
  query: URLSearchParams,
  headers: IncomingHttpHeaders,
): S3Operation {
  if (!target.bucket) {
    if (method === "GET") return "ListBuckets";
    throw methodNotAllowed();
  }
  const unserved = unservedSubresource(method, target.key !== "", query);
  if (unserved) throw notServed(`this S3 operation (${method} with the ?${unserved} subresource)`);
  if (!target.key) {
    if (method === "PUT") return "CreateBucket";
    if (method === "HEAD") return "HeadBucket";
    if (method === "GET" && query.has("location")) return "GetBucketLocation";
    if (method === "GET" && query.get("list-type") === "2") return "ListObjectsV2";
    if (method === "GET") throw notServed("ListObjects (version 1); list with ListObjectsV2 (list-type=2)");
    throw methodNotAllowed();
  }
  const multipart = query.has("uploadId");
  if (method === "PUT" && headers["x-amz-copy-source"] !== undefined) {
    throw notServed(multipart ? "UploadPartCopy" : "CopyObject (x-amz-copy-source)");
  }
  if (method === "POST" && query.has("uploads")) return "CreateMultipartUpload";
  if (method === "PUT") return multipart ? "UploadPart" : "PutObject";
  if (method === "POST" && multipart) return "CompleteMultipartUpload";
  if (method === "DELETE") return multipart ? "AbortMultipartUpload" : "DeleteObject";
  if (method === "GET") return "GetObject";
  if (method === "HEAD") return "HeadObject";
  throw methodNotAllowed();
}
