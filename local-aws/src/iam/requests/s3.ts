import type { AuthorizationQuery } from "../evaluate.ts";

/** What S3 routes on: the method, the bucket and key from the path, and the query string. */
export interface S3Request {
  method: string;
  bucket: string;
  key: string;
  query: URLSearchParams;
}

/**
 * The IAM action S3 checks for each REST operation local mode serves, on `arn:aws:s3:::bucket` or
 * `arn:aws:s3:::bucket/key`. Several operations share one action (multipart parts and completion are
 * s3:PutObject, HeadObject is s3:GetObject, ListObjectsV2 and HeadBucket are s3:ListBucket).
 */
export function s3Authorization(request: S3Request): AuthorizationQuery[] {
  const { method, bucket, key, query } = request;
  const bucketArn = `arn:aws:s3:::${bucket}`;
  const objectArn = `${bucketArn}/${key}`;
  const on = (action: string, resource: string, context = {}): AuthorizationQuery[] => [
    { action: `s3:${action}`, resource, context },
  ];
  if (!bucket) return on("ListAllMyBuckets", "*");
  if (!key) {
    if (method === "PUT") return on("CreateBucket", bucketArn);
    if (method === "GET" && query.has("location")) return on("GetBucketLocation", bucketArn);
    if (method === "HEAD") return on("ListBucket", bucketArn);
    // S3 sets s3:prefix to "" when a listing names no prefix (policies allow the root listing with "").
    return on("ListBucket", bucketArn, {
      "s3:prefix": query.get("prefix") ?? "",
      ...(query.has("delimiter") ? { "s3:delimiter": query.get("delimiter") ?? "" } : {}),
      ...(query.has("max-keys") ? { "s3:max-keys": query.get("max-keys") ?? "" } : {}),
    });
  }
  if (method === "DELETE" && query.has("uploadId")) return on("AbortMultipartUpload", objectArn);
  if (method === "PUT" || method === "POST") return on("PutObject", objectArn);
  if (method === "DELETE") return on("DeleteObject", objectArn);
  return on("GetObject", objectArn);
}

/**
 * What S3 checks before it tells a caller that a key does not exist (S3 API Reference, GetObject and HeadObject):
 * "If you have the s3:ListBucket permission on the bucket, Amazon S3 returns an HTTP status code 404 Not Found
 * error. If you don't have the s3:ListBucket permission, Amazon S3 returns an HTTP status code 403 Access Denied
 * error." A grant limited by an s3:prefix condition is evaluated for the key itself.
 */
export function s3MissingKeyAuthorization(bucket: string, key: string): AuthorizationQuery[] {
  return [{ action: "s3:ListBucket", resource: `arn:aws:s3:::${bucket}`, context: { "s3:prefix": key } }];
}
