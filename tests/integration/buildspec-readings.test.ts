import fs from "node:fs";
import path from "node:path";
import { contextSources, dockerBuildFiles } from "@decision-console/local-aws/testing";
import { describe, expect, it } from "vitest";
import { buildVariables, dockerfileSources, dockerfilesOf, readBuildspec } from "../../server/builds/build-sources.ts";

/**
 * The console (which files a build's source must carry) and local CodeBuild (what a `docker build` would read)
 * each read buildspecs and Dockerfiles in code of their own; over the project's own buildspecs and Dockerfiles,
 * and over the forms the Dockerfile reference allows, the two readings must agree.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");

describe("the console's and local CodeBuild's readings of buildspecs and Dockerfiles", () => {
  for (const buildspecPath of ["infra/buildspecs/image-build.yml", "infra/buildspecs/model-package.yml"]) {
    for (const variant of ["cpu", "cuda"]) {
      it(`name the same Dockerfiles in ${buildspecPath} (IMAGE_VARIANT=${variant})`, () => {
        const buildspec = readBuildspec(ROOT, buildspecPath);
        const variables = buildVariables(buildspec, { IMAGE_VARIANT: variant });
        expect(dockerBuildFiles(buildspec, variables)).toEqual(dockerfilesOf(buildspec, variables));
      });
    }
  }

  for (const dockerfile of fs.readdirSync(path.join(ROOT, "infra/docker")).filter((f) => /^Dockerfile\.\w+$/.test(f))) {
    it(`read the same COPY/ADD sources from infra/docker/${dockerfile}`, () => {
      const text = fs.readFileSync(path.join(ROOT, "infra/docker", dockerfile), "utf8");
      const local = contextSources(text);
      expect(local.length).toBeGreaterThan(0);
      expect(local).toEqual(dockerfileSources(text));
    });
  }

  it("agree on the forms the Dockerfile reference allows", () => {
    const text = [
      "FROM node:24 AS build",
      "# COPY commented-out /nowhere",
      "copy package.json package-lock.json ./",
      'COPY ["adapter/src", "/app/src"]',
      "COPY --chown=node:node --chmod=644 adapter/package.json \\",
      "     /app/",
      "COPY --from=build /app/dist /app/dist",
      "ADD ./scripts/ /app/scripts/",
    ].join("\n");
    expect(contextSources(text)).toEqual([
      "package.json",
      "package-lock.json",
      "adapter/src",
      "adapter/package.json",
      "scripts",
    ]);
    expect(dockerfileSources(text)).toEqual(contextSources(text));
  });
});
