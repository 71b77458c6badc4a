/**
 * Copies every file the console uploads as a build's source (server/builds/build-sources.ts: model packaging and
 * each adapter image variant) from this checkout into a folder, keeping their paths:
 *   npx tsx scripts/copy-build-sources.ts <folder>
 * The console image's build runs it into the standalone server's folder: the console starts builds from its working
 * directory, and the image holds no checkout of its own.
 */
import fs from "node:fs";
import path from "node:path";
import { imageVariantSchema } from "../contract/builds/builds.ts";
import { type BuildSourceRequest, buildSourceFiles } from "../server/builds/build-sources.ts";

const REPO_ROOT = path.resolve(import.meta.dirname, "..");

/** Every kind of build the console starts. */
export const buildSourceRequests: BuildSourceRequest[] = [
  { kind: "model" },
  ...imageVariantSchema.options.map((variant) => ({ kind: "image" as const, variant })),
];

export function copyBuildSources(root: string, destination: string): string[] {
  const files = [...new Set(buildSourceRequests.flatMap((request) => buildSourceFiles(root, request)))].sort();
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(destination, file)), { recursive: true });
    fs.copyFileSync(path.join(root, file), path.join(destination, file));
  }
  return files;
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const destination = process.argv[2];
  if (!destination) {
    console.error("usage: npx tsx scripts/copy-build-sources.ts <folder>");
    process.exit(2);
  }
  const files = copyBuildSources(REPO_ROOT, path.resolve(destination));
  console.log(`Copied the ${files.length} files builds upload into ${destination}`);
}
