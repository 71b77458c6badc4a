import { readFileSync } from "node:fs";
import path from "node:path";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { StartBuildRequest } from "../../contract/builds/builds.ts";
import { parseDockerfile } from "../../infra/test-support/dockerfile.ts";
import { buildSourceFiles } from "../../server/builds/build-sources.ts";
import { sourceArchive } from "../../server/builds/source-upload.ts";

const repoRoot = path.resolve(import.meta.dirname, "..", "..");
const model: StartBuildRequest = {
  kind: "model",
  gguf: { repo: "r/m-GGUF", revision: "0".repeat(40), file: "m.gguf", sha256: "a".repeat(64) },
  compression: "Gzip",
};

function archiveOf(request: StartBuildRequest): string[] {
  return Object.keys(unzipSync(sourceArchive(repoRoot, buildSourceFiles(repoRoot, request))));
}

/** The COPY/ADD sources of a Dockerfile as the Docker reader in infra/test-support sees them (no --from copies). */
function copySources(dockerfile: string): string[] {
  return parseDockerfile(path.join(repoRoot, dockerfile)).stages.flatMap((stage) =>
    stage.instructions
      .filter((i) => (i.keyword === "COPY" || i.keyword === "ADD") && !i.args.includes("--from="))
      .flatMap((i) => i.args.split(/\s+/).slice(0, -1)),
  );
}

const inArchive = (files: string[], source: string) =>
  files.includes(source) || files.some((file) => file.startsWith(`${source.replace(/\/$/, "")}/`));

describe("the source archive of a build holds what its buildspec and Dockerfile read", () => {
  it.each(["cpu", "cuda"] as const)(
    "image build (%s): the buildspec, the Dockerfile and every COPY source",
    (variant) => {
      const files = archiveOf({ kind: "image", variant });
      const buildspec = "infra/buildspecs/image-build.yml";
      expect(files).toContain(buildspec);
      expect(files).toContain(`infra/docker/Dockerfile.${variant}`);
      expect(files).toContain(`infra/docker/Dockerfile.${variant}.dockerignore`);
      const sources = copySources(`infra/docker/Dockerfile.${variant}`);
      expect(sources).toContain("tsconfig.base.json");
      for (const source of sources)
        expect(inArchive(files, source), `${source} (COPY in Dockerfile.${variant})`).toBe(true);
      expect(files.some((file) => file.includes("node_modules/"))).toBe(false);
    },
  );

  it("model build: the buildspec, the package files npm install reads and the packager with its imports", () => {
    const files = archiveOf(model);
    const buildspec = parse(readFileSync(path.join(repoRoot, "infra/buildspecs/model-package.yml"), "utf8")) as {
      phases: Record<string, { commands: string[] }>;
    };
    expect(files).toContain("infra/buildspecs/model-package.yml");
    const script = buildspec.phases.build!.commands.join("\n").match(/npx tsx (\S+)/)?.[1];
    expect(script).toBe("infra/packager/cli.ts");
    for (const file of ["package.json", "package-lock.json", "adapter/package.json", script!]) {
      expect(files).toContain(file);
    }
    for (const imported of [
      "infra/packager/package-model.ts",
      "infra/packager/packager-env.ts",
      "infra/packager/archive.ts",
    ]) {
      expect(files).toContain(imported);
    }
    expect(files.some((file) => file.endsWith(".test.ts"))).toBe(false);
  });
});
