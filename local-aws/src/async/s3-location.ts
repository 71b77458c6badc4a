/** A bucket and key named by an `s3://` URI or an S3 `https://` URL (virtual-hosted or path style). */
export interface S3Location {
  bucket: string;
  key: string;
}

const virtualHosted = /^([a-z0-9][a-z0-9.-]*[a-z0-9])\.s3(?:[.-][a-z0-9-]+)?\.amazonaws\.com$/;
const pathStyle = /^s3(?:[.-][a-z0-9-]+)?\.amazonaws\.com$/;

export function parseS3Location(uri: string): S3Location | null {
  const s3 = /^s3:\/\/([^/]+)\/(.+)$/.exec(uri);
  if (s3) return { bucket: s3[1] as string, key: s3[2] as string };
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  if (url.protocol !== "https:") return null;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname.slice(1));
  } catch {
    // A `%` not followed by two hex digits, or escapes that are not UTF-8: no key can be read from it.
    return null;
  }
  const hosted = virtualHosted.exec(url.hostname);
  if (hosted && path) return { bucket: hosted[1] as string, key: path };
  if (pathStyle.test(url.hostname)) {
    const [bucket = "", ...rest] = path.split("/");
    if (bucket && rest.length > 0) return { bucket, key: rest.join("/") };
  }
  return null;
}

/** `s3://bucket/prefix` + a file name, with exactly one slash between them. */
export function s3UriUnder(prefix: string, file: string): string {
  return `${prefix.replace(/\/+$/, "")}/${file}`;
}
