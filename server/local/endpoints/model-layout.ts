import fs from "node:fs";
import path from "node:path";
import * as tar from "tar";
import { containedPath, PathEscapeError } from "../contained-path.ts";
import type { ObjectStore, StoredObject } from "../object-store.ts";
import type { ContainerDefinition } from "../sagemaker-store.ts";

/** Why an endpoint failed to get its model, in the words SageMaker's FailureReason uses. */
export class ModelDataError extends Error {}

function parse(uri: string): { bucket: string; key: string } {
  const match = /^s3:\/\/([^/]+)\/(.*)$/.exec(uri);
  if (!match?.[1]) throw new ModelDataError(`The model data location "${uri}" is not an S3 URI.`);
  return { bucket: match[1], key: match[2] ?? "" };
}

function fetchObject(store: ObjectStore, uri: string): StoredObject {
  const { bucket, key } = parse(uri);
  const object = store.find(bucket, key);
  if (!object) {
    throw new ModelDataError(
      `Could not access model data at ${uri}. Please ensure that the object exists and that the role has s3:GetObject on it.`,
    );
  }
  return object;
}

function isGzip(file: string): boolean {
  const fd = fs.openSync(file, "r");
  try {
    const magic = Buffer.alloc(2);
    fs.readSync(fd, magic, 0, 2, 0);
    return magic[0] === 0x1f && magic[1] === 0x8b;
  } finally {
    fs.closeSync(fd);
  }
}

const EXTRACTED_TYPES = new Set(["File", "OldFile", "ContiguousFile", "Directory", "SymbolicLink", "Link"]);

/**
 * Why a tar entry may not be extracted into `modelDir`, or null: it must stay inside, be a file, a directory or a
 * link, and a link's target must lead downwards only (no `..`, not absolute), so no chain of links leaves the
 * directory either.
 */
function refusedEntry(modelDir: string, entry: tar.ReadEntry): string | null {
  try {
    containedPath(modelDir, ...entry.path.split("/"));
  } catch {
    return `${entry.path} leaves the model directory`;
  }
  if (!EXTRACTED_TYPES.has(entry.type)) return `${entry.path} is a ${entry.type}, not a file or directory`;
  const target = entry.linkpath;
  if ((entry.type === "SymbolicLink" || entry.type === "Link") && target !== undefined) {
    if (target.startsWith("/") || target.split("/").includes("..") || target.includes("\0")) {
      return `${entry.path} links to ${target}, outside the model directory`;
    }
  }
  return null;
}

async function extract(object: StoredObject, uri: string, modelDir: string) {
  if (!isGzip(object.file)) {
    throw new ModelDataError(`The model data at ${uri} is not a gzip-compressed tar archive (model.tar.gz).`);
  }
  const refused: string[] = [];
  try {
    await tar.x({
      file: object.file,
      cwd: modelDir,
      strict: true,
      filter: (_path, entry) => {
        const reason = refusedEntry(modelDir, entry as tar.ReadEntry);
        if (reason) refused.push(reason);
        return reason === null;
      },
    });
  } catch (error) {
    throw new ModelDataError(`The model data at ${uri} could not be extracted: ${(error as Error).message}`);
  }
  if (refused.length > 0) {
    throw new ModelDataError(
      `The model data at ${uri} has entries local mode refuses to extract: ${refused.join("; ")}`,
    );
  }
}

/**
 * Objects are immutable files (an overwrite writes a new one), so a hard link is a safe, instant copy. `relative`
 * (the key below the prefix) must stay inside `modelDir`.
 */
function place(object: StoredObject, modelDir: string, relative: string, uri: string) {
  let target: string;
  try {
    target = containedPath(modelDir, ...relative.split("/"));
  } catch (error) {
    if (!(error instanceof PathEscapeError)) throw error;
    throw new ModelDataError(
      `The model data under ${uri} has an object key (${object.key}) that leaves the model directory; local mode does not lay it out.`,
    );
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  try {
    fs.linkSync(object.file, target);
  } catch {
    fs.copyFileSync(object.file, target);
  }
}

/**
 * Lays the container's model data out in `modelDir` as SageMaker does under `/opt/ml/model`: a `ModelDataUrl`
 * tarball is extracted; a `ModelDataSource` prefix or object is copied as is (or extracted when Gzip).
 */
export async function layOutModel(store: ObjectStore, container: ContainerDefinition, modelDir: string): Promise<void> {
  fs.rmSync(modelDir, { recursive: true, force: true });
  fs.mkdirSync(modelDir, { recursive: true });
  const source = container.ModelDataSource?.S3DataSource;
  if (source?.S3Uri) {
    const uri = source.S3Uri;
    if (source.S3DataType === "S3Prefix") {
      const { bucket, key: prefix } = parse(uri);
      if (!prefix.endsWith("/")) throw new ModelDataError(`The S3Prefix model data location ${uri} must end with "/".`);
      const objects = store.list(bucket, prefix, "", 100_000).filter((object) => !object.key.endsWith("/"));
      if (objects.length === 0) throw new ModelDataError(`Could not find any model data under ${uri}.`);
      for (const object of objects) place(object, modelDir, object.key.slice(prefix.length), uri);
      return;
    }
    const object = fetchObject(store, uri);
    if (source.CompressionType === "Gzip") await extract(object, uri, modelDir);
    else place(object, modelDir, path.posix.basename(parse(uri).key), uri);
    return;
  }
  if (container.ModelDataUrl) {
    await extract(fetchObject(store, container.ModelDataUrl), container.ModelDataUrl, modelDir);
    return;
  }
  throw new ModelDataError("The model has no model data (ModelDataUrl or ModelDataSource).");
}
