import { tmpdir } from "node:os";
import { join } from "node:path";
import { S3Client } from "@aws-sdk/client-s3";
import { type PackagerProgress, packageModel } from "./package-model.ts";
import { exportLines, parsePackagerEnv } from "./packager-env.ts";
import { PackagerError } from "./packager-error.ts";

/** Progress as JSON lines on stderr, at most one per file every 2 s, so build logs stay readable. */
function progressLogger(): (event: PackagerProgress) => void {
  const lastLogged = new Map<string, number>();
  return (event) => {
    const key = event.phase === "download" ? event.file : event.phase === "upload" ? event.key : event.phase;
    const done = "bytesDone" in event && event.bytesTotal !== undefined && event.bytesDone >= event.bytesTotal;
    const now = Date.now();
    if (!done && now - (lastLogged.get(key) ?? 0) < 2000) return;
    lastLogged.set(key, now);
    process.stderr.write(`${JSON.stringify({ packager: event })}\n`);
  };
}

async function main(): Promise<void> {
  const options = parsePackagerEnv(process.env, join(tmpdir(), "decision-console-packager"));
  // A local S3 (the console's local mode) is addressed by path; real S3 keeps virtual-hosted style.
  const s3 = new S3Client({ forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3 ?? process.env.AWS_ENDPOINT_URL) });
  try {
    const result = await packageModel({ ...options, s3, onProgress: progressLogger() });
    process.stderr.write(`${JSON.stringify({ packager: { phase: "done", manifest: result.manifest } })}\n`);
    process.stdout.write(exportLines(result));
  } finally {
    s3.destroy();
  }
}

main().catch((error: unknown) => {
  const message =
    error instanceof PackagerError ? `${error.code}: ${error.message}` : error instanceof Error ? error.stack : error;
  process.stderr.write(`packager failed: ${message}\n`);
  process.exitCode = 1;
});
