/**
 * S3 selects many operations by a subresource in the query rather than by method and path. Amazon S3 User Guide,
 * "Signing and authenticating REST requests": "The subresources that must be included when constructing the
 * CanonicalizedResource Element are acl, lifecycle, location, logging, notification, partNumber, policy,
 * requestPayment, uploadId, uploads, versionId, versioning, versions, and website." The rest are the operations
 * the API Reference adds since, each named by its query parameter (GetBucketTagging's `?tagging`, DeleteObjects'
 * `?delete`, ...).
 */
const SUBRESOURCES = [
  "acl",
  "lifecycle",
  "location",
  "logging",
  "notification",
  "partNumber",
  "policy",
  "requestPayment",
  "uploadId",
  "uploads",
  "versionId",
  "versioning",
  "versions",
  "website",
  "accelerate",
  "analytics",
  "attributes",
  "cors",
  "delete",
  "encryption",
  "intelligent-tiering",
  "inventory",
  "legal-hold",
  "metadataTable",
  "metrics",
  "object-lock",
  "ownershipControls",
  "policyStatus",
  "publicAccessBlock",
  "replication",
  "restore",
  "retention",
  "select",
  "session",
  "tagging",
  "torrent",
] as const;

/** The subresources local S3 serves, by method and by whether the request names a key. */
const SERVED: Record<"bucket" | "object", Record<string, readonly string[]>> = {
  bucket: { GET: ["location"] },
  object: { POST: ["uploads", "uploadId"], PUT: ["uploadId", "partNumber"], DELETE: ["uploadId"] },
};

/** The first subresource of the request that local S3 does not serve for its method and target, if any. */
export function unservedSubresource(method: string, hasKey: boolean, query: URLSearchParams): string | null {
  const served = SERVED[hasKey ? "object" : "bucket"][method] ?? [];
  return SUBRESOURCES.find((name) => query.has(name) && !served.includes(name)) ?? null;
}
