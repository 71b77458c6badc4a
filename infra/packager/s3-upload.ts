import { createReadStream } from "node:fs";
import type { S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { PackagerError } from "./packager-error.ts";

export interface UploadProgress {
  key: string;
  bytesDone: number;
  bytesTotal: number | undefined;
}

export interface UploadFileOptions {
  s3: S3Client;
  bucket: string;
  key: string;
  path: string;
  contentType: string;
  metadata?: Record<string, string>;
  partSizeBytes?: number;
  onProgress?: (progress: UploadProgress) => void;
}

/** 64 MiB parts keep a 3 GB GGUF at about 45 parts, far below S3's 10,000-part limit, with 4 parts in flight. */
const PART_SIZE = 64 * 1024 * 1024;

export async function uploadFile(options: UploadFileOptions): Promise<void> {
  const upload = new Upload({
    client: options.s3,
    params: {
      Bucket: options.bucket,
      Key: options.key,
      Body: createReadStream(options.path),
      ContentType: options.contentType,
      Metadata: options.metadata,
    },
    partSize: options.partSizeBytes ?? PART_SIZE,
    queueSize: 4,
    leavePartsOnError: false,
  });
  upload.on("httpUploadProgress", (progress) => {
    options.onProgress?.({ key: options.key, bytesDone: progress.loaded ?? 0, bytesTotal: progress.total });
  });
  try {
    await upload.done();
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new PackagerError("upload_failed", `Upload to s3://${options.bucket}/${options.key} failed: ${reason}`, {
      cause: error,
    });
  }
}
