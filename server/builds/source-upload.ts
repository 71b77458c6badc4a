import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { HeadObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { awsCall, toAwsAppError } from "../aws/errors.ts";
import type { BuildSourceOverride } from "./builds.ts";

/** What an image build needs from the working tree: the adapter workspace, the lockfile and the Docker recipes. */
export const imageBuildSourcePaths = ["package.json", "package-lock.json", "adapter", "infra/docker"];

const skipped = new Set(["node_modules", "dist", ".turbo"]);

export function collectSourceFiles(root: string, paths: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (relative: string) => {
    const absolute = path.join(root, relative);
    if (!fs.existsSync(absolute)) return;
    if (fs.statSync(absolute).isDirectory()) {
      for (const entry of fs.readdirSync(absolute).sort()) {
        if (!skipped.has(entry)) walk(path.join(relative, entry));
      }
    } else {
      files.push(relative.split(path.sep).join("/"));
    }
  };
  for (const p of paths) walk(p);
  return files;
}

/** One hash over every file's path and bytes, so identical sources land under the same prefix once. */
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

async function exists(s3: S3Client, bucket: string, key: string): Promise<boolean> {
  try {
    await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return true;
  } catch (error) {
    if (toAwsAppError(error).status === 404) return false;
    throw toAwsAppError(error, `s3://${bucket}/${key}`);
  }
}

/**
 * Uploads the build sources as an S3 folder `build-sources/<sha256>/` (CodeBuild's S3 folder source) and returns the
 * override StartBuild takes. Skips the upload when that exact source set is already there.
 */
export async function uploadBuildSources(
  s3: S3Client,
  bucket: string,
  root: string,
  paths: readonly string[] = imageBuildSourcePaths,
): Promise<BuildSourceOverride & { files: number; digest: string }> {
  const files = collectSourceFiles(root, paths);
  const digest = sourceDigest(root, files);
  const prefix = `build-sources/${digest}`;
  const marker = `${prefix}/.complete`;
  if (!(await exists(s3, bucket, marker))) {
    for (const file of files) {
      await awsCall(`s3://${bucket}/${prefix}/${file}`, () =>
        new Upload({
          client: s3,
          params: { Bucket: bucket, Key: `${prefix}/${file}`, Body: fs.createReadStream(path.join(root, file)) },
        }).done(),
      );
    }
    await awsCall(`s3://${bucket}/${marker}`, () =>
      new Upload({ client: s3, params: { Bucket: bucket, Key: marker, Body: digest } }).done(),
    );
  }
  return { location: `${bucket}/${prefix}/`, files: files.length, digest };
}
