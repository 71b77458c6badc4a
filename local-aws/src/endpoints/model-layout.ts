import fs from "node:fs";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import * as tar from "tar";
import { containedPath, PathEscapeError } from "../contained-path.ts";
import type { ObjectStore, StoredObject } from "../object-store.ts";
import type { ContainerDefinition } from "../sagemaker-store.ts";

/** Why an endpoint failed to get its model, in the words SageMaker's FailureReason uses. */
export class ModelDataError extends Error {}

/**
 * Local mode's ceiling on a model archive's entries (a model is its weights, a tokenizer and a few files). The
 * bytes it may expand to are bounded by the disk: on SageMaker, the instance's ML storage volume.
 */
export const MAX_MODEL_ENTRIES = 10_000;
/** Linux's longest file name (NAME_MAX) and path (PATH_MAX). */
const MAX_SEGMENT_BYTES = 255;
const MAX_PATH_BYTES = 4096;

export interface ModelDataLimits {
  /** Bytes the archive may expand to (its tar stream, headers included). Default: the disk's free space. */
  maxBytes: number;
}

function freeSpace(dir: string): number {
  const stats = fs.statfsSync(dir);
  return stats.bavail * stats.bsize;
}

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
  if (
    Buffer.byteLength(entry.path) > MAX_PATH_BYTES ||
    entry.path.split("/").some((segment) => Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)
  ) {
    return `${entry.path.slice(0, 80)}… path is too long (at most ${MAX_PATH_BYTES} bytes, ${MAX_SEGMENT_BYTES} per segment)`;
  }
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

/**
 * Unpacks the archive in one pass, bounded: the inflated stream stops at `limits.maxBytes` and the entries at
 * MAX_MODEL_ENTRIES, whatever the archive's headers claim, and a refused archive leaves no partial model.
 */
async function extract(object: StoredObject, uri: string, modelDir: string, limits: ModelDataLimits) {
  if (!isGzip(object.file)) {
    throw new ModelDataError(`The model data at ${uri} is not a gzip-compressed tar archive (model.tar.gz).`);
  }
  const refused: string[] = [];
  let entries = 0;
  let inflated = 0;
  const ceiling = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      inflated += chunk.length;
      if (inflated > limits.maxBytes) {
        done(
          new ModelDataError(
            `The model data at ${uri} expands to more than ${limits.maxBytes} bytes, the space this machine has for it.`,
          ),
        );
      } else done(null, chunk);
    },
  });
  const unpack = tar.x({
    cwd: modelDir,
    strict: true,
    filter: (_path, entry) => {
      entries += 1;
      if (entries > MAX_MODEL_ENTRIES) {
        ceiling.destroy(new ModelDataError(`The model data at ${uri} has more than ${MAX_MODEL_ENTRIES} entries.`));
        return false;
      }
      const reason = refusedEntry(modelDir, entry as tar.ReadEntry);
      if (reason) refused.push(reason);
      return reason === null;
    },
  });
  try {
    await pipeline(fs.createReadStream(object.file), createGunzip(), ceiling, unpack);
  } catch (error) {
    emptyDirectory(modelDir);
    if (error instanceof ModelDataError) throw error;
    throw new ModelDataError(`The model data at ${uri} could not be extracted: ${(error as Error).message}`);
  }
  if (refused.length > 0) {
    throw new ModelDataError(
      `The model data at ${uri} has entries local mode refuses to extract: ${refused.join("; ")}`,
    );
  }
}

function emptyDirectory(dir: string) {
  for (const name of fs.readdirSync(dir)) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
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
export async function layOutModel(
  store: ObjectStore,
  container: ContainerDefinition,
  modelDir: string,
  limits?: ModelDataLimits,
): Promise<void> {
  fs.rmSync(modelDir, { recursive: true, force: true });
  fs.mkdirSync(modelDir, { recursive: true });
  const bounds = limits ?? { maxBytes: freeSpace(modelDir) };
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
    if (source.CompressionType === "Gzip") await extract(object, uri, modelDir, bounds);
    else place(object, modelDir, path.posix.basename(parse(uri).key), uri);
    return;
  }
  if (container.ModelDataUrl) {
    await extract(fetchObject(store, container.ModelDataUrl), container.ModelDataUrl, modelDir, bounds);
    return;
  }
  throw new ModelDataError("The model has no model data (ModelDataUrl or ModelDataSource).");
}
