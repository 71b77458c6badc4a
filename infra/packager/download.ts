import { createWriteStream } from "node:fs";
import { rm, stat } from "node:fs/promises";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { PackagerError } from "./packager-error.ts";

export interface DownloadProgress {
  bytesDone: number;
  bytesTotal: number | undefined;
}

export interface DownloadOptions {
  url: string;
  /** Bytes land here; an existing file is continued with an HTTP Range request (a retried build resumes too). */
  partialPath: string;
  headers?: Record<string, string>;
  maxAttempts?: number;
  retryDelayMs?: number;
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
}

export interface DownloadResult {
  bytes: number;
  /** How many requests continued an earlier partial body with `Range`. */
  resumedRequests: number;
}

const PERMANENT_STATUSES = new Set([400, 401, 403, 404, 410]);

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

// `Content-Range: bytes 100-199/200` -> {start: 100, total: 200}; `bytes */200` -> {total: 200}.
function parseContentRange(header: string | null): { start?: number; total?: number } {
  const match = header?.match(/^bytes (?:(\d+)-\d+|\*)\/(\d+|\*)$/);
  if (!match) return {};
  return {
    start: match[1] === undefined ? undefined : Number(match[1]),
    total: match[2] === "*" ? undefined : Number(match[2]),
  };
}

function reasonOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return `${error.message}${cause}`;
  }
  return String(error);
}

/**
 * Downloads `url` into `partialPath`, continuing after dropped connections with `Range` requests. The caller
 * verifies the checksum; this function only guarantees the byte count the server announced.
 */
export async function downloadWithResume(options: DownloadOptions): Promise<DownloadResult> {
  const maxAttempts = options.maxAttempts ?? 6;
  const retryDelayMs = options.retryDelayMs ?? 1000;
  let resumedRequests = 0;
  let lastFailure = "no attempt made";

  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    if (attempt > 1) await sleep(Math.min(retryDelayMs * 2 ** (attempt - 2), 30_000), undefined, options);
    const offset = await sizeOf(options.partialPath);
    const headers: Record<string, string> = { ...options.headers };
    if (offset > 0) headers.Range = `bytes=${offset}-`;

    let response: Response;
    try {
      response = await fetch(options.url, { headers, redirect: "follow", signal: options.signal });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      lastFailure = reasonOf(error);
      continue;
    }

    if (response.status === 416 && offset > 0) {
      await response.body?.cancel();
      const { total } = parseContentRange(response.headers.get("content-range"));
      if (total === offset) return { bytes: offset, resumedRequests };
      await rm(options.partialPath, { force: true });
      lastFailure = `the server refused to continue at byte ${offset}; starting over`;
      continue;
    }
    if (PERMANENT_STATUSES.has(response.status)) {
      await response.body?.cancel();
      throw new PackagerError(
        "download_failed",
        `Download of ${options.url} failed with HTTP ${response.status}; check the repo, revision and file (and HF_TOKEN for gated repos)`,
      );
    }
    if (response.status !== 200 && response.status !== 206) {
      await response.body?.cancel();
      lastFailure = `HTTP ${response.status}`;
      continue;
    }

    let start = 0;
    let total: number | undefined;
    if (response.status === 206) {
      const range = parseContentRange(response.headers.get("content-range"));
      if (range.start !== offset) {
        await response.body?.cancel();
        await rm(options.partialPath, { force: true });
        lastFailure = `the server answered Range ${offset}- with a different range; starting over`;
        continue;
      }
      start = offset;
      total = range.total;
      resumedRequests++;
    } else {
      const length = response.headers.get("content-length");
      total = length === null ? undefined : Number(length);
    }
    if (!response.body) {
      lastFailure = "the response had no body";
      continue;
    }

    let bytesDone = start;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytesDone += chunk.length;
        options.onProgress?.({ bytesDone, bytesTotal: total });
        callback(null, chunk);
      },
    });
    try {
      await pipeline(
        Readable.fromWeb(response.body as import("node:stream/web").ReadableStream),
        counter,
        createWriteStream(options.partialPath, { flags: start > 0 ? "a" : "w" }),
        { signal: options.signal },
      );
    } catch (error) {
      if (options.signal?.aborted) throw error;
      lastFailure = `the connection dropped after ${bytesDone} bytes (${reasonOf(error)})`;
      continue;
    }

    const size = await sizeOf(options.partialPath);
    if (total !== undefined && size !== total) {
      lastFailure = `received ${size} of ${total} bytes`;
      continue;
    }
    return { bytes: size, resumedRequests };
  }

  throw new PackagerError(
    "download_failed",
    `Download of ${options.url} failed after ${maxAttempts} attempts: ${lastFailure}. The partial file is kept at ${options.partialPath} and a rerun resumes it.`,
  );
}
