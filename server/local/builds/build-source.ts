import fs from "node:fs";
import path from "node:path";
import { unzipSync } from "fflate";
import type { ObjectStore } from "../object-store.ts";

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
 * The file an archive entry or object key names inside the source directory. Absolute paths, `.`/`..` segments,
 * backslashes and NUL are refused, and the resolved path must stay inside the directory.
 */
export function sourcePath(srcDir: string, name: string): string {
  const segments = name.split("/");
  const unsafe =
    name === "" ||
    name.startsWith("/") ||
    name.includes("\\") ||
    name.includes("\0") ||
    segments.some((segment) => segment === "." || segment === "..");
  const resolved = path.resolve(srcDir, ...segments.filter((s) => s !== ""));
  if (unsafe || !resolved.startsWith(`${path.resolve(srcDir)}${path.sep}`)) {
    throw new PhaseError(
      "CLIENT_ERROR",
      `source entry ${JSON.stringify(name)} would be written outside the source directory`,
    );
  }
  return resolved;
}

function write(file: string, bytes: Uint8Array) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes, { flag: "wx" });
}

/**
 * CodeBuild's DOWNLOAD_SOURCE for an S3 source: unpacks the ZIP (or copies the folder's objects) named by the
 * build's source location into `srcDir`. A missing object fails as CodeBuild words it.
 */
export function downloadSource(objects: ObjectStore, location: string, srcDir: string): number {
  const { bucket, key } = parseS3Location(location);
  const missing = () =>
    new PhaseError(
      "CLIENT_ERROR",
      `NoSuchKey: The specified key does not exist. for primary source and source version arn:aws:s3:::${bucket}/${key}`,
    );
  fs.mkdirSync(srcDir, { recursive: true });
  if (key.endsWith("/") || key === "") {
    const found = objects.list(bucket, key, "", 100_000);
    if (found.length === 0) throw missing();
    for (const object of found) write(sourcePath(srcDir, object.key.slice(key.length)), fs.readFileSync(object.file));
    return found.length;
  }
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
