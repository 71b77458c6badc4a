import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { readBuildspec } from "./test-support/codebuild-emulator.ts";
import { parseDockerfile } from "./test-support/dockerfile.ts";

/**
 * Issue 12, High 4: nothing we ship runs an end-of-life Node.js (20 ended on 2026-04-30). The adapter images,
 * the buildspecs and the CI run of the adapter's tests all use Node.js 24 LTS, the images' exact version.
 */
const repoRoot = fileURLToPath(new URL("../", import.meta.url));
const NODE_24_IMAGE = /^docker\.io\/library\/node:(24\.\d+\.\d+)-bookworm-slim@sha256:[0-9a-f]{64}$/;
const nodeImage = (variant: "cpu" | "cuda" | "console") =>
  parseDockerfile(join(repoRoot, "infra", "docker", `Dockerfile.${variant}`)).globalArgs.get("NODE_IMAGE");

describe("the Node.js we ship", () => {
  it("is one Node.js 24 LTS release, pinned by digest, in both adapter images and the console image", () => {
    expect(nodeImage("cpu")).toMatch(NODE_24_IMAGE);
    expect(nodeImage("cuda")).toBe(nodeImage("cpu"));
    expect(nodeImage("console")).toBe(nodeImage("cpu"));
  });

  it("is Node.js 24 in every buildspec that picks a runtime", async () => {
    for (const name of ["model-package.yml", "image-build.yml", "console-image.yml"]) {
      const buildspec = await readBuildspec(join(repoRoot, "infra", "buildspecs", name));
      const runtimes = Object.values(buildspec.phases).flatMap((phase) =>
        phase?.["runtime-versions"] ? [phase["runtime-versions"]] : [],
      );
      for (const runtime of runtimes) expect(runtime.nodejs, name).toBe(24);
    }
    const modelPackage = await readBuildspec(join(repoRoot, "infra", "buildspecs", "model-package.yml"));
    expect(modelPackage.phases.install?.["runtime-versions"]?.nodejs).toBe(24);
  });

  it("is what CI runs the adapter's and the images' tests under: the script reads the images' version and .ci/run calls it", async () => {
    const version = NODE_24_IMAGE.exec(nodeImage("cpu") ?? "")?.[1];
    const script = join(repoRoot, "scripts", "test-adapter-node24.sh");
    // The script's own reading of the version, without installing anything.
    const { stdout } = await promisify(execFile)(
      "bash",
      ["-c", `eval "$(sed -n '/^version=/p' ${JSON.stringify(script)})"; echo "$version"`],
      { cwd: repoRoot },
    );
    expect(stdout.trim()).toBe(version);
    const ci = await readFile(join(repoRoot, ".ci", "run"), "utf8");
    expect(ci).toMatch(/^npm run test:adapter-node24$/m);
    const packageJson = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8"));
    expect(packageJson.scripts["test:adapter-node24"]).toBe("bash scripts/test-adapter-node24.sh");
    const runs = await readFile(script, "utf8");
    for (const test of ["adapter/test", "container-contract.model.test.ts", "console-image.model.test.ts"]) {
      expect(runs).toContain(test);
    }
  });
});
