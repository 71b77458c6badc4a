import fs from "node:fs";
import path from "node:path";
import { unzipSync } from "fflate";
import { containedPath } from "../contained-path.ts";
import type { S3Request } from "../iam/requests/s3.ts";
import type { ObjectStore } from "../object-store.ts";
import { AwsError } from "../wire/aws-error.ts";

/** A phase failure as CodeBuild reports it: the phase context's status code and message. */
export class PhaseError extends Error {
  constructor(
    readonly statusCode: string,
    message: string,
  ) {
    super(message);
  }
}

/** `bucket/key.zip` (an archive) or `bucket/prefix/` (an S3 folder), CodeBuild's two S3 source forms. */
export function parseS3Location(location: string): { bucket: string; key: string } {
  const slash = location.indexOf("/");
  if (slash <= 0) throw new PhaseError("CLIENT_ERROR", `invalid S3 source location ${location}`);
  return { bucket: location.slice(0, slash), key: location.slice(slash + 1) };
}

/**
 * The file an archive entry or object key names inside the source directory. Absolute paths, `.`/`..` segments
 * and backslashes are refused, and the path must stay inside the directory (containedPath).
 */
export function sourcePath(srcDir: string, name: string): string {
  const segments = name.split("/");
  const escaping = () =>
    new PhaseError(
      "CLIENT_ERROR",
      `source entry ${JSON.stringify(name)} would be written outside the source directory`,
    );
  if (name.startsWith("/") || name.includes("\\") || segments.some((segment) => segment === "." || segment === "..")) {
    throw escaping();
  }
  try {
    return containedPath(srcDir, ...segments.filter((segment) => segment !== ""));
  } catch {
    throw escaping();
  }
}

function write(file: string, bytes: Uint8Array) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes, { flag: "wx" });
}

/**
 * CodeBuild's DOWNLOAD_SOURCE for an S3 source: unpacks the ZIP (or copies the folder's objects) named by the
 * build's source location into `srcDir`, reading with the build's role (`authorize` throws S3's AccessDenied for
 * a read its policy does not allow). A missing object or a refused read fails as CodeBuild words it.
 */
export function downloadSource(
  objects: ObjectStore,
  location: string,
  srcDir: string,
  authorize: (request: S3Request) => void,
): number {
  const { bucket, key } = parseS3Location(location);
  const failure = (reason: string) =>
    new PhaseError("CLIENT_ERROR", `${reason} for primary source and source version arn:aws:s3:::${bucket}/${key}`);
  const missing = () => failure("NoSuchKey: The specified key does not exist.");
  const read = (request: Omit<S3Request, "method">) => {
    try {
      authorize({ method: "GET", ...request });
    } catch (error) {
      if (error instanceof AwsError && error.code === "AccessDenied") throw failure("AccessDenied: Access Denied");
      throw error;
    }
  };
  fs.mkdirSync(srcDir, { recursive: true });
  if (key.endsWith("/") || key === "") {
    read({ bucket, key: "", query: new URLSearchParams({ "list-type": "2", prefix: key }) });
    const found = objects.list(bucket, key, "", 100_000);
    if (found.length === 0) throw missing();
    for (const object of found) {
      read({ bucket, key: object.key, query: new URLSearchParams() });
      write(sourcePath(srcDir, object.key.slice(key.length)), fs.readFileSync(object.file));
    }
    return found.length;
  }
  read({ bucket, key, query: new URLSearchParams() });
  const object = objects.find(bucket, key);
  if (!object) throw missing();
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(fs.readFileSync(object.file));
  } catch (error) {
    throw new PhaseError(
      "CLIENT_ERROR",
      `zip: not a valid zip file (${(error as Error).message}) for primary source and source version arn:aws:s3:::${bucket}/${key}`,
    );
  }
  let files = 0;
  for (const [name, bytes] of Object.entries(entries)) {
    if (name.endsWith("/")) continue;
    write(sourcePath(srcDir, name), bytes);
    files += 1;
  }
  return files;
}
