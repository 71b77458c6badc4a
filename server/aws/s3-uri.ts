/** The bucket and the key (or key prefix) an `s3://bucket/key` URI names; both empty when it is not such a URI. */
export function parseS3Uri(uri: string): { bucket: string; prefix: string } {
  const match = /^s3:\/\/([^/]+)\/(.*)$/.exec(uri);
  return { bucket: match?.[1] ?? "", prefix: match?.[2] ?? "" };
}
