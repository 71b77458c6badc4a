import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { zipSync } from "fflate";
import { ARTIFACT_PREFIXES } from "../../contract/stack/console-contract.ts";
import { awsCall } from "../aws/errors.ts";
import { objectExists } from "../aws/s3-object-exists.ts";
import type { BuildSourceOverride } from "./builds.ts";

/** One hash over every file's path and bytes, so identical sources land under the same key once. */
export function sourceDigest(root: string, files: readonly string[]): string {
  const hash = createHash("sha256");
  for (const file of files) {
    hash
      .update(file)
      .update("\0")
      .update(fs.readFileSync(path.join(root, file)))
      .update("\0");
  }
  return hash.digest("hex");
}

/** A fixed timestamp, so the same files always make the same archive. */
const ARCHIVE_MTIME = new Date("2000-01-01T00:00:00Z");

/** The files as a ZIP archive (CodeBuild's S3 source format), with their paths as given. */
export function sourceArchive(root: string, files: readonly string[]): Uint8Array {
  const entries: Record<string, Uint8Array> = {};
  for (const file of files) entries[file] = fs.readFileSync(path.join(root, file));
  return zipSync(entries, { level: 6, mtime: ARCHIVE_MTIME });
}

/**
 * Uploads the files a build reads as one ZIP, `build-sources/<sha256>.zip` (content-addressed: an archive already
 * there is reused), and returns the `bucket/key` StartBuild takes as its S3 source.
 */
export async function uploadBuildSources(
  s3: S3Client,
  bucket: string,
  root: string,
  files: readonly string[],
): Promise<BuildSourceOverride & { files: number; digest: string }> {
  const digest = sourceDigest(root, files);
  const key = `${ARTIFACT_PREFIXES.buildSources}${digest}.zip`;
  if (!(await objectExists(s3, bucket, key, `s3://${bucket}/${key}`))) {
    const body = sourceArchive(root, files);
    await awsCall(`s3://${bucket}/${key}`, () =>
      new Upload({
        client: s3,
        params: { Bucket: bucket, Key: key, Body: body, ContentType: "application/zip" },
      }).done(),
    );
  }
  return { location: `${bucket}/${key}`, files: files.length, digest };
}
