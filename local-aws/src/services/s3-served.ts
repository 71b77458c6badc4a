import { AwsError } from "../wire/aws-error.ts";
import { type S3InputShapesOperation, s3InputBindings } from "../wire/generated/s3.ts";
import { LOCAL_ACCOUNT_ID } from "../wire/request.ts";
import { onlyValues, type Served, unservedMember } from "../wire/served-members.ts";

/**
 * The members of each S3 operation local S3 acts on (or, where a value changes nothing, accepts); any other member
 * the service model binds to the request is refused, never accepted and ignored (s3.ts answers 501 NotImplemented).
 * Local buckets are what S3 creates by default: ACLs disabled (Object Ownership BucketOwnerEnforced), no Object Lock,
 * not Requester Pays, unversioned, objects in STANDARD encrypted with S3-managed keys (SSE-S3, AES256).
 */

/**
 * PutObject, x-amz-acl: buckets with ACLs disabled "only accept PUT requests that don't specify an ACL or PUT
 * requests that specify bucket owner full control ACLs ... PUT requests that contain other ACLs ... fail and return
 * a 400 error with the error code AccessControlListNotSupported."
 */
function aclsNotSupported(): never {
  throw new AwsError("AccessControlListNotSupported", "The bucket does not allow ACLs", 400);
}

const aclsDisabled: Served = aclsNotSupported;
const ownerFullControl: Served = (value) => (value === "bucket-owner-full-control" ? null : aclsNotSupported());

/** S3 refuses Object Lock headers on a bucket created without Object Lock, as every local bucket is. */
const noObjectLock: Served = () => {
  throw new AwsError("InvalidRequest", "Bucket is missing Object Lock Configuration", 400);
};

/**
 * x-amz-expected-bucket-owner: "If the account ID that you provide does not match the actual owner of the bucket,
 * the request fails with the HTTP status code 403 Forbidden (access denied)."
 */
const bucketOwner: Served = (value) => {
  if (value === LOCAL_ACCOUNT_ID) return null;
  throw new AwsError("AccessDenied", "Access Denied", 403);
};

/** Content-Encoding `aws-chunked` is the SDK's transfer framing, which S3 removes; any other coding is stored. */
const transferEncodingOnly: Served = (value, path) =>
  String(value)
    .split(",")
    .every((coding) => coding.trim() === "aws-chunked")
    ? null
    : path;

/** Members every operation on a bucket or its objects has: the owner check, and Requester Pays, a no-op here. */
const bucketMembers = { Bucket: "served", ExpectedBucketOwner: bucketOwner } satisfies Record<string, Served>;
const objectMembers = { ...bucketMembers, Key: "served", RequestPayer: "served" } satisfies Record<string, Served>;

/**
 * The SDK's flexible checksums, sent by default (x-amz-sdk-checksum-algorithm and one x-amz-checksum-*, in a header
 * or the aws-chunked trailer): the body is verified against the one given (wire/s3-checksums.ts).
 */
const checksums = {
  ChecksumAlgorithm: "served",
  ChecksumCRC32: "served",
  ChecksumCRC32C: "served",
  ChecksumCRC64NVME: "served",
  ChecksumSHA1: "served",
  ChecksumSHA256: "served",
  ChecksumSHA512: "served",
  ChecksumMD5: "served",
  ChecksumXXHASH64: "served",
  ChecksumXXHASH3: "served",
  ChecksumXXHASH128: "served",
} satisfies Record<string, Served>;

/** What a new object is stored as: its content type and user metadata; SSE-S3 and STANDARD as S3's defaults. */
const newObject = {
  ...objectMembers,
  ContentType: "served",
  ContentEncoding: transferEncodingOnly,
  Metadata: "served",
  ACL: ownerFullControl,
  GrantFullControl: aclsDisabled,
  GrantRead: aclsDisabled,
  GrantReadACP: aclsDisabled,
  GrantWriteACP: aclsDisabled,
  ServerSideEncryption: onlyValues("AES256"),
  BucketKeyEnabled: onlyValues(false),
  StorageClass: onlyValues("STANDARD"),
  ObjectLockMode: noObjectLock,
  ObjectLockRetainUntilDate: noObjectLock,
  ObjectLockLegalHoldStatus: noObjectLock,
  ObjectLockEventHold: noObjectLock,
  ObjectLockEventHoldDurationDays: noObjectLock,
  ObjectLockEventHoldDurationYears: noObjectLock,
} satisfies Record<string, Served>;

/** GetObject and HeadObject: the object's bytes (a range of them), if its conditions hold, with its headers overridden as asked. */
const readObject = {
  ...objectMembers,
  Range: "served",
  IfMatch: "served",
  IfNoneMatch: "served",
  IfModifiedSince: "served",
  IfUnmodifiedSince: "served",
  // Checksums are returned for objects stored with one; local S3 stores none, so it returns none, as S3 then does.
  ChecksumMode: "served",
  ResponseCacheControl: "served",
  ResponseContentDisposition: "served",
  ResponseContentEncoding: "served",
  ResponseContentLanguage: "served",
  ResponseContentType: "served",
  ResponseExpires: "served",
} satisfies Record<string, Served>;

const s3ServedMembers: Record<S3InputShapesOperation, Record<string, Served>> = {
  ListBuckets: { MaxBuckets: "served", ContinuationToken: "served", Prefix: "served" },
  CreateBucket: {
    Bucket: "served",
    ACL: onlyValues("private"),
    GrantFullControl: aclsDisabled,
    GrantRead: aclsDisabled,
    GrantReadACP: aclsDisabled,
    GrantWrite: aclsDisabled,
    GrantWriteACP: aclsDisabled,
    ObjectLockEnabledForBucket: onlyValues(false),
    ObjectOwnership: onlyValues("BucketOwnerEnforced"),
    BucketNamespace: onlyValues("global"),
  },
  HeadBucket: bucketMembers,
  GetBucketLocation: bucketMembers,
  ListObjectsV2: {
    ...bucketMembers,
    RequestPayer: "served",
    Prefix: "served",
    Delimiter: "served",
    MaxKeys: "served",
    ContinuationToken: "served",
    StartAfter: "served",
    EncodingType: "served",
    // RestoreStatus, the one attribute, is only ever given for archived objects: local S3 has none.
    OptionalObjectAttributes: "served",
  },
  // lib-storage names the algorithm its parts' checksums use (CRC32), each verified as UploadPart receives it.
  CreateMultipartUpload: { ...newObject, ChecksumAlgorithm: "served" },
  UploadPart: {
    ...objectMembers,
    ...checksums,
    ContentMD5: "served",
    UploadId: "served",
    PartNumber: "served",
    Body: "served",
    ContentLength: "served",
  },
  // Whole-object checksums are refused (local S3 keeps no part checksums to combine); each part's ETag is compared.
  CompleteMultipartUpload: { ...objectMembers, UploadId: "served", MultipartUpload: "served" },
  AbortMultipartUpload: { ...objectMembers, UploadId: "served" },
  PutObject: { ...newObject, ...checksums, ContentMD5: "served", Body: "served", ContentLength: "served" },
  GetObject: readObject,
  HeadObject: readObject,
  // Without Object Lock there is no governance retention to bypass.
  DeleteObject: { ...objectMembers, BypassGovernanceRetention: "served" },
};

/**
 * Refuses the first member of the input local S3 does not serve: a header with S3's NotImplemented wording (its
 * `Header` field naming it), a query parameter saying local mode does not serve it; a check may answer S3's own
 * error instead (AccessControlListNotSupported, ...).
 */
export function refuseUnservedMembers(operation: S3InputShapesOperation, input: Record<string, unknown>) {
  const unserved = unservedMember(s3ServedMembers[operation], input);
  if (!unserved) return;
  const [member = ""] = unserved.split(" ");
  const binding = s3InputBindings[operation].members[member];
  const name = binding?.name ?? member;
  if (binding?.location === "header" || binding?.location === "headers") {
    throw new AwsError(
      "NotImplemented",
      `A header you provided implies functionality that is not implemented: local mode does not serve ${name} on ${operation}${unserved === member ? "" : ` with ${unserved.slice(member.length + 1)}`}.`,
      501,
      { Header: name },
    );
  }
  throw new AwsError("NotImplemented", `Local mode does not serve ${name} on ${operation}.`, 501);
}
