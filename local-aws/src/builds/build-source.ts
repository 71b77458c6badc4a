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

/**
 * Local mode's ceilings on one build's source (an archive or an S3 folder), which CodeBuild's own build container
 * disk bounds on AWS: what the control plane holds in memory and writes for one DOWNLOAD_SOURCE. A source of the
 * console's kinds is a few hundred files of a few MiB.
 */
export const MAX_SOURCE_BYTES = 256 * 1024 * 1024;
export const MAX_SOURCE_ENTRIES = 10_000;
/** S3's longest key, and Linux's longest file name (NAME_MAX). */
const MAX_NAME_BYTES = 1024;
const MAX_SEGMENT_BYTES = 255;

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
  if (
    Buffer.byteLength(name) > MAX_NAME_BYTES ||
    segments.some((segment) => Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)
  ) {
    throw new PhaseError(
      "CLIENT_ERROR",
      `source entry ${JSON.stringify(name.slice(0, 80))}… path is too long (at most ${MAX_NAME_BYTES} bytes, ${MAX_SEGMENT_BYTES} per segment)`,
    );
  }
  try {
    return containedPath(srcDir, ...segments.filter((segment) => segment !== ""));
  } catch {
    throw escaping();
  }
}

function write(srcDir: string, name: string, bytes: Uint8Array) {
  const file = sourcePath(srcDir, name);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, bytes, { flag: "wx" });
  } catch (error) {
    // A file and a directory of one name, or a name the file system refuses.
    throw new PhaseError(
      "CLIENT_ERROR",
      `source entry ${JSON.stringify(name)} cannot be written (${(error as NodeJS.ErrnoException).code ?? error})`,
    );
  }
}

/** Counts a source's entries and bytes against the ceilings, refusing the one that passes them. */
function sourceBudget(failure: (reason: string) => PhaseError) {
  let entries = 0;
  let bytes = 0;
  return (size: number) => {
    entries += 1;
    bytes += size;
    if (entries > MAX_SOURCE_ENTRIES) throw failure(`source has more than ${MAX_SOURCE_ENTRIES} entries`);
    if (bytes > MAX_SOURCE_BYTES) throw failure(`source expands to more than ${MAX_SOURCE_BYTES} bytes`);
  };
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
  const count = sourceBudget(failure);
  if (key.endsWith("/") || key === "") {
    read({ bucket, key: "", query: new URLSearchParams({ "list-type": "2", prefix: key }) });
    const found = objects.list(bucket, key, "", MAX_SOURCE_ENTRIES + 1);
    if (found.length === 0) throw missing();
    for (const object of found) count(object.size);
    for (const object of found) {
      read({ bucket, key: object.key, query: new URLSearchParams() });
      write(srcDir, object.key.slice(key.length), fs.readFileSync(object.file));
    }
    return found.length;
  }
  read({ bucket, key, query: new URLSearchParams() });
  const object = objects.find(bucket, key);
  if (!object) throw missing();
  if (object.size > MAX_SOURCE_BYTES) throw failure(`source archive is larger than ${MAX_SOURCE_BYTES} bytes`);
  let entries: Record<string, Uint8Array>;
  try {
    // fflate inflates an entry into a buffer of the size its header declares (and no larger): counting the
    // declared sizes before any entry is inflated bounds what the archive can make this process hold.
    entries = unzipSync(fs.readFileSync(object.file), {
      filter: (entry) => {
        count(entry.originalSize);
        if (!entry.name.endsWith("/")) sourcePath(srcDir, entry.name);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof PhaseError) throw error;
    throw new PhaseError(
      "CLIENT_ERROR",
      `zip: not a valid zip file (${(error as Error).message}) for primary source and source version arn:aws:s3:::${bucket}/${key}`,
    );
  }
  let files = 0;
  for (const [name, bytes] of Object.entries(entries)) {
    if (name.endsWith("/")) continue;
    write(srcDir, name, bytes);
    files += 1;
  }
  return files;
}
