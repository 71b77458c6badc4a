import { mkdir, rename, rm, symlink, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { S3Client } from "@aws-sdk/client-s3";
import { z } from "zod";
import { createModelArchive } from "./archive.ts";
import { downloadWithResume } from "./download.ts";
import { digestFile } from "./file-digest.ts";
import { MANIFEST_FILE_NAME, type ModelManifest, serializeManifest } from "./manifest.ts";
import {
  DEFAULT_HF_ENDPOINT,
  huggingFaceFileUrl,
  type ModelSource,
  modelSourceSchema,
  type TokenizerPin,
  tokenizerPinSchema,
} from "./model-source.ts";
import { PackagerError } from "./packager-error.ts";
import { uploadFile } from "./s3-upload.ts";
import { PACKAGER_VERSION } from "./version.ts";

/**
 * `gzip`: one `model.tar.gz` (SageMaker `ModelDataUrl`); SageMaker downloads and unpacks it, which for a multi-GB
 * GGUF costs a single-threaded gunzip at every instance start for almost no size gain (quantised weights barely
 * compress). `none`: the files as objects under a prefix (`ModelDataSource.S3DataSource` with `S3DataType:
 * S3Prefix`, `CompressionType: None`), copied in parallel and not unpacked: faster start-up for large models.
 */
export type ModelCompression = "gzip" | "none";

export type PackagerProgress =
  | { phase: "download"; file: string; bytesDone: number; bytesTotal: number | undefined }
  | { phase: "verify"; file: string }
  | { phase: "archive" }
  | { phase: "upload"; key: string; bytesDone: number; bytesTotal: number | undefined };

export interface PackageModelOptions {
  source: ModelSource;
  tokenizer?: TokenizerPin;
  compression: ModelCompression;
  s3: S3Client;
  bucket: string;
  /** Key prefix of the artifact; default `models/<sha256>/<compression>`. */
  prefix?: string;
  /** Scratch space for downloads and the archive; a rerun with the same directory resumes a partial download. */
  workDir: string;
  /** Base URL of the Hub; default `HF_ENDPOINT`'s convention, https://huggingface.co. */
  hfEndpoint?: string;
  hfToken?: string;
  onProgress?: (event: PackagerProgress) => void;
  signal?: AbortSignal;
  retry?: { maxAttempts?: number; retryDelayMs?: number };
  /** Multipart part size (S3's minimum is 5 MiB); default 64 MiB. */
  s3PartSizeBytes?: number;
}

export interface PackagedModel {
  /** `s3://bucket/prefix/model.tar.gz` for gzip; `s3://bucket/prefix/` (an S3 prefix) for none. */
  modelDataUrl: string;
  compression: ModelCompression;
  sha256: string;
  bytes: number;
  manifest: ModelManifest;
}

const bucketSchema = z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "bucket must be a valid S3 bucket name");
const prefixSchema = z
  .string()
  .transform((prefix) => prefix.replace(/^\/+|\/+$/g, ""))
  .refine((prefix) => prefix.length > 0 && !prefix.split("/").includes(".."), "prefix must be a non-empty key prefix");

function invalid(error: z.ZodError, what: string): PackagerError {
  const details = error.issues.map((issue) => `${[what, ...issue.path].join(".")}: ${issue.message}`).join("; ");
  return new PackagerError("invalid_input", details);
}

function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid(parsed.error, what);
  return parsed.data;
}

function checksumMismatch(file: string, expected: string, actual: string): PackagerError {
  return new PackagerError(
    "checksum_mismatch",
    `sha256 mismatch for ${file}: expected ${expected}, got ${actual}. Nothing was uploaded.`,
  );
}

export async function packageModel(options: PackageModelOptions): Promise<PackagedModel> {
  const source = parseOrThrow(modelSourceSchema, options.source, "source");
  const tokenizer =
    options.tokenizer === undefined ? undefined : parseOrThrow(tokenizerPinSchema, options.tokenizer, "tokenizer");
  const bucket = parseOrThrow(bucketSchema, options.bucket, "bucket");
  const endpoint = options.hfEndpoint ?? DEFAULT_HF_ENDPOINT;
  const headers: Record<string, string> = options.hfToken ? { Authorization: `Bearer ${options.hfToken}` } : {};
  const progress = options.onProgress ?? (() => {});

  const workDir = resolve(options.workDir);
  const stageDir = join(workDir, "stage");
  const downloadDir = join(workDir, "downloads");
  await rm(stageDir, { recursive: true, force: true });
  await mkdir(stageDir, { recursive: true });
  await mkdir(downloadDir, { recursive: true });

  const download = async (url: string, file: string, target: string, expectedSha256?: string) => {
    const partialPath = join(downloadDir, `${file.replaceAll("/", "__")}.partial`);
    await downloadWithResume({
      url,
      partialPath,
      headers,
      signal: options.signal,
      ...options.retry,
      onProgress: (p) => progress({ phase: "download", file, ...p }),
    });
    progress({ phase: "verify", file });
    const digest = await digestFile(partialPath);
    if (expectedSha256 !== undefined && digest.sha256 !== expectedSha256) {
      await rm(partialPath, { force: true });
      throw checksumMismatch(file, expectedSha256, digest.sha256);
    }
    await mkdir(dirname(target), { recursive: true });
    await rename(partialPath, target);
    return digest;
  };

  const ggufName = basename(source.kind === "huggingface" ? source.file : source.path);
  const ggufPath = join(stageDir, ggufName);
  let gguf: ModelManifest["gguf"];
  if (source.kind === "huggingface") {
    const digest = await download(huggingFaceFileUrl(endpoint, source), source.file, ggufPath, source.sha256);
    gguf = { repo: source.repo, revision: source.revision, file: source.file, ...digest };
  } else {
    const localPath = resolve(source.path);
    progress({ phase: "verify", file: localPath });
    const digest = await digestFile(localPath).catch((error: unknown) => {
      throw new PackagerError("invalid_input", `Cannot read the local model ${localPath}: ${String(error)}`);
    });
    if (source.sha256 !== undefined && digest.sha256 !== source.sha256) {
      throw checksumMismatch(localPath, source.sha256, digest.sha256);
    }
    await symlink(localPath, ggufPath);
    gguf = { repo: source.repo, revision: source.revision, file: ggufName, ...digest };
  }

  let tokenizerEntry: ModelManifest["tokenizer"];
  if (tokenizer) {
    const files = [];
    for (const file of tokenizer.files) {
      const url = huggingFaceFileUrl(endpoint, { repo: tokenizer.repo, revision: tokenizer.revision, file });
      const digest = await download(url, `tokenizer/${file}`, join(stageDir, "tokenizer", file));
      files.push({ file, ...digest });
    }
    tokenizerEntry = { repo: tokenizer.repo, revision: tokenizer.revision, files };
  }

  const manifest: ModelManifest = {
    gguf,
    ...(tokenizerEntry ? { tokenizer: tokenizerEntry } : {}),
    packager: { name: "decision-console-model-packager", version: PACKAGER_VERSION },
  };
  await writeFile(join(stageDir, MANIFEST_FILE_NAME), serializeManifest(manifest));

  const prefix = parseOrThrow(
    prefixSchema,
    options.prefix ?? `models/${gguf.sha256}/${options.compression === "gzip" ? "gzip" : "uncompressed"}`,
    "prefix",
  );
  const onUpload = (p: { key: string; bytesDone: number; bytesTotal: number | undefined }) =>
    progress({ phase: "upload", ...p });
  const metadata = { "gguf-sha256": gguf.sha256, "packager-version": PACKAGER_VERSION };

  if (options.compression === "gzip") {
    progress({ phase: "archive" });
    const archivePath = join(workDir, "model.tar.gz");
    const entries = [ggufName, MANIFEST_FILE_NAME, ...(tokenizerEntry ? ["tokenizer"] : [])];
    await createModelArchive(stageDir, entries, archivePath);
    const key = `${prefix}/model.tar.gz`;
    await uploadFile({
      s3: options.s3,
      bucket,
      key,
      path: archivePath,
      contentType: "application/gzip",
      metadata,
      partSizeBytes: options.s3PartSizeBytes,
      onProgress: onUpload,
    });
    return {
      modelDataUrl: `s3://${bucket}/${key}`,
      compression: "gzip",
      sha256: gguf.sha256,
      bytes: gguf.bytes,
      manifest,
    };
  }

  // The manifest goes last, so a prefix that holds a manifest holds every file it names.
  const objects = [
    { name: ggufName, contentType: "application/octet-stream" },
    ...(tokenizerEntry?.files ?? []).map((f) => ({ name: `tokenizer/${f.file}`, contentType: "application/json" })),
    { name: MANIFEST_FILE_NAME, contentType: "application/json" },
  ];
  for (const object of objects) {
    await uploadFile({
      s3: options.s3,
      bucket,
      key: `${prefix}/${object.name}`,
      path: join(stageDir, object.name),
      contentType: object.contentType,
      metadata,
      partSizeBytes: options.s3PartSizeBytes,
      onProgress: onUpload,
    });
  }
  return {
    modelDataUrl: `s3://${bucket}/${prefix}/`,
    compression: "none",
    sha256: gguf.sha256,
    bytes: gguf.bytes,
    manifest,
  };
}
