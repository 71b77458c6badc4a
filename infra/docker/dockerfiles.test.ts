import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { containerStart, parseDockerfile } from "../test-support/dockerfile.ts";

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const dockerDir = join(repoRoot, "infra", "docker");
const variants = { cpu: "linux-x64", cuda: "linux-x64-cuda" } as const;
const load = (variant: keyof typeof variants) => parseDockerfile(join(dockerDir, `Dockerfile.${variant}`));

let scratch: string | undefined;
afterEach(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
  scratch = undefined;
});

describe.each(Object.keys(variants) as (keyof typeof variants)[])("Dockerfile.%s", (variant) => {
  it("passes dockerfilelint with the project's rules", async () => {
    const { stdout } = await run(
      join(repoRoot, "node_modules", ".bin", "dockerfilelint"),
      ["-c", dockerDir, "-j", join(dockerDir, `Dockerfile.${variant}`)],
      { cwd: repoRoot },
    );
    const report = JSON.parse(stdout) as { totalIssues: number; files: { issues: unknown[] }[] };
    expect(report.files[0]?.issues).toEqual([]);
    expect(report.totalIssues).toBe(0);
  });

  it("builds every stage from an earlier stage or from an image pinned by digest", () => {
    const dockerfile = load(variant);
    const earlier: string[] = [];
    for (const stage of dockerfile.stages) {
      const where = `stage ${stage.name ?? "final"} (FROM ${stage.from})`;
      expect(stage.from, where).not.toContain("${");
      // `addon-${CUDA_ADDON}`: every documented value must name an earlier stage, not only the default.
      const references = stage.from.startsWith("addon-") ? ["addon-prebuilt", "addon-source"] : [stage.from];
      for (const from of references) {
        if (!earlier.includes(from)) expect(from, where).toMatch(/^[\w.\-/:]+@sha256:[0-9a-f]{64}$/);
      }
      if (stage.name) earlier.push(stage.name);
    }
  });

  it("starts the adapter's serve command in exec form, as SageMaker's `docker run <image> serve` needs", () => {
    const start = containerStart(load(variant));
    expect(start.command).toEqual(["node", "adapter/dist/cli.js", "serve"]);
    expect(start.workdir).toBe("/app");
    expect(start.env.SM_MODEL_DIR).toBe("/opt/ml/model");
  });

  it("listens on every interface in the container, where SageMaker connects from outside (ADAPTER_HOST)", () => {
    expect(containerStart(load(variant)).env.ADAPTER_HOST).toBe("0.0.0.0");
  });

  it("copies only files that exist in the repository", () => {
    const dockerfile = load(variant);
    const sources = dockerfile.stages
      .flatMap((stage) => stage.instructions)
      .filter((i) => i.keyword === "COPY" && !i.args.includes("--from="))
      .flatMap((i) =>
        i.args
          .split(/\s+/)
          .filter((word) => !word.startsWith("--"))
          .slice(0, -1),
      );
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(existsSync(join(repoRoot, source)), source).toBe(true);
  });

  it(`keeps only node-llama-cpp's ${variants[variant]} binaries`, async () => {
    const deps = load(variant).stages.find((stage) => stage.name === "deps");
    const prune = deps?.instructions
      .filter((i) => i.keyword === "RUN")
      .flatMap((i) => i.args.split(" && "))
      .find((command) => command.startsWith("find node_modules/@node-llama-cpp"));
    expect(prune).toBeDefined();
    scratch = await mkdtemp(join(tmpdir(), "prune-"));
    const installed = [
      "linux-x64",
      "linux-x64-cuda",
      "linux-x64-cuda-ext",
      "linux-x64-vulkan",
      "linux-arm64",
      "linux-armv7l",
      "mac-arm64-metal",
      "win-x64",
    ];
    for (const name of installed)
      await mkdir(join(scratch, "node_modules", "@node-llama-cpp", name), { recursive: true });

    await run("sh", ["-c", prune!], { cwd: scratch });

    expect(await readdir(join(scratch, "node_modules", "@node-llama-cpp"))).toEqual([variants[variant]]);
  });
});

describe("Dockerfile.cuda", () => {
  it("requires CUDA at start-up and offers a source build for sm_75/86/89/90", () => {
    const dockerfile = load("cuda");
    expect(containerStart(dockerfile).env.ADAPTER_GPU).toBe("cuda");
    expect(dockerfile.globalArgs.get("CUDA_ARCHITECTURES")).toBe("75;86;89;90");
    expect(dockerfile.globalArgs.get("CUDA_ADDON")).toBe("prebuilt");
    expect(dockerfile.globalArgs.get("CUDA_RUNTIME_IMAGE")).toMatch(/nvidia\/cuda:13\.0\.\d+-runtime-/);
    const source = dockerfile.stages.find((stage) => stage.name === "addon-source");
    const build = source?.instructions.find((i) => i.keyword === "RUN" && i.args.includes("source build"));
    expect(build?.args).toContain("--gpu cuda");
    expect(
      source?.instructions.some((i) => i.args.includes("NODE_LLAMA_CPP_CMAKE_OPTION_CMAKE_CUDA_ARCHITECTURES")),
    ).toBe(true);
  });
});
