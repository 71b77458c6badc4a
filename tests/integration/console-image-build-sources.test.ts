import path from "node:path";
import { describe, expect, it } from "vitest";
import { contextFiles } from "../../infra/test-support/docker-context.ts";
import { buildSourceRequests } from "../../scripts/copy-build-sources.ts";
import { buildSourceFiles } from "../../server/builds/build-sources.ts";

/**
 * The console image starts builds from the files its build copied beside the server (scripts/copy-build-sources.ts,
 * run in Dockerfile.console's build stage): that copy can only hold what the image's build context lets in.
 */
const repoRoot = path.resolve(import.meta.dirname, "..", "..");
const context = new Set(contextFiles(repoRoot, "infra/docker/Dockerfile.console"));

describe("the console image's build context", () => {
  it.each(buildSourceRequests.map((request) => [JSON.stringify(request), request] as const))(
    "holds every file a build uploads, tests aside: %s",
    (_name, request) => {
      const uploaded = buildSourceFiles(repoRoot, request).filter((file) => !/\.test\.tsx?$/.test(file));
      expect(uploaded.length).toBeGreaterThan(3);
      expect(uploaded.filter((file) => !context.has(file))).toEqual([]);
    },
  );
});
