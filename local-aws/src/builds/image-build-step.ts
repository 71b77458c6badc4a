import fs from "node:fs";
import path from "node:path";
import type { ImageRegistry, ImageVariant } from "../image-registry.ts";
import { PhaseError } from "./build-source.ts";
import { type Buildspec, contextSources, dockerBuildFiles } from "./buildspec.ts";

/**
 * The one step local CodeBuild does not run as written: `docker build` (there is no Docker engine). It checks what
 * Docker would: the Dockerfile the buildspec names and every COPY/ADD source are in the unpacked source (BuildKit's
 * "not found" otherwise), then records the image of the source in IMAGE_REPOSITORY of the local registry (what
 * `docker push` would have pushed there).
 */
export function localImageBuild(options: {
  srcDir: string;
  buildspec: Buildspec;
  variables: Record<string, string>;
  registry: ImageRegistry;
  buildNumber: number;
  registryHost: string;
  log: (line: string) => void;
}): Record<string, string> {
  const { srcDir, buildspec, variables, registry, log } = options;
  const variant = variables.IMAGE_VARIANT ?? "";
  if (variant !== "cpu" && variant !== "cuda") {
    throw new PhaseError("COMMAND_EXECUTION_ERROR", `IMAGE_VARIANT must be cpu or cuda, not '${variant}'`);
  }
  const dockerfiles = dockerBuildFiles(buildspec, variables);
  if (dockerfiles.length !== 1) {
    throw new PhaseError(
      "COMMAND_EXECUTION_ERROR",
      `expected one docker build in the buildspec, found ${dockerfiles.length}`,
    );
  }
  const dockerfile = dockerfiles[0] as string;
  const dockerfilePath = path.join(srcDir, dockerfile);
  if (!fs.existsSync(dockerfilePath)) {
    throw new PhaseError(
      "COMMAND_EXECUTION_ERROR",
      `ERROR: failed to solve: failed to read dockerfile: open ${dockerfile}: no such file or directory`,
    );
  }
  for (const source of contextSources(fs.readFileSync(dockerfilePath, "utf8"))) {
    if (!fs.existsSync(path.join(srcDir, source))) {
      throw new PhaseError(
        "COMMAND_EXECUTION_ERROR",
        `ERROR: failed to solve: failed to compute cache key: failed to calculate checksum of ref: "/${source}": not found`,
      );
    }
  }
  const repository = variables.IMAGE_REPOSITORY ?? "";
  log(
    `Docker is not used locally: ${dockerfile} and its COPY sources are in the source; recording its image as the ${variant} image of ${repository}.`,
  );
  const tag = `${variant}-build-${options.buildNumber}`;
  const uri = `${options.registryHost}/${repository}`;
  const image = registry.recordBuiltImage(repository, variant as ImageVariant, [variant, tag], srcDir);
  if (!image) {
    throw new PhaseError(
      "COMMAND_EXECUTION_ERROR",
      `name unknown: The repository with name '${repository}' does not exist in the registry with id '${options.registryHost.split(".")[0]}' (docker push ${uri}:${tag})`,
    );
  }
  log(`pushed ${uri}@${image.digest} (tags ${image.tags.join(", ")})`);
  return { IMAGE_DIGEST: image.digest, IMAGE_URI: `${uri}@${image.digest}`, IMAGE_TAG: tag, IMAGE_VARIANT: variant };
}
