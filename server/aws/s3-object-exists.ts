import { ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import { awsCall } from "./errors.ts";

/**
 * Whether `key` is in the bucket, asked as a one-key listing (`Prefix` is the key): to a caller S3 does not let list
 * the key, a GetObject or HeadObject of a missing key is 403 AccessDenied, not 404, so only a listing can say "not
 * there". The console's policy lists exactly the prefixes it asks this of. `what` names the object in errors.
 */
export async function objectExists(s3: S3Client, bucket: string, key: string, what: string): Promise<boolean> {
  const listed = await awsCall(what, () =>
    s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: key, MaxKeys: 1 })),
  );
  // Keys are listed in order, so a key that is there comes before every longer key it is a prefix of.
  return listed.Contents?.[0]?.Key === key;
}
