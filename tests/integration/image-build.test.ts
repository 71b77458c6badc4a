import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Buildspec, readBuildspec, runBuildspec } from "../../infra/test-support/codebuild-emulator.ts";
import { buildOf } from "../../server/builds/build-view.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const DIGEST = `sha256:${"ab12".repeat(16)}`;
const REGISTRY = "123456789012.dkr.ecr.eu-west-1.amazonaws.com";

let stubs: string;
let buildspec: Buildspec;

/** `docker` and `aws` stand-ins that log their arguments; `aws ecr describe-images` answers $STUB_DIGEST. */
async function writeStubs(): Promise<void> {
  const docker = `#!/bin/sh\n[ "$1" = login ] && cat > /dev/null\necho "docker $*" >> "$STUB_LOG"\n`;
  const aws = [
    "#!/bin/sh",
    'echo "aws $*" >> "$STUB_LOG"',
    'case "$*" in',
    "  *get-login-password*) echo token ;;",
    '  *describe-images*) echo "$STUB_DIGEST" ;;',
    "esac",
  ].join("\n");
  await writeFile(join(stubs, "docker"), docker);
  await writeFile(join(stubs, "aws"), `${aws}\n`);
  await chmod(join(stubs, "docker"), 0o755);
  await chmod(join(stubs, "aws"), 0o755);
}

async function build(env: Record<string, string>) {
  const result = await runBuildspec(buildspec, {
    cwd: repoRoot,
    phases: ["install", "pre_build", "build", "post_build"],
    env: {
      PATH: `${stubs}:${process.env.PATH}`,
      STUB_LOG: join(stubs, "log"),
      STUB_DIGEST: DIGEST,
      AWS_REGION: "eu-west-1",
      CODEBUILD_BUILD_ARN: "arn:aws:codebuild:eu-west-1:123456789012:build/decision-console-image-build:abc",
      CODEBUILD_BUILD_NUMBER: "7",
      ...env,
    },
  });
  const log = await readFile(join(stubs, "log"), "utf8").catch(() => "");
  return { ...result, commands: log.trim().split("\n") };
}

beforeEach(async () => {
  stubs = await mkdtemp(join(tmpdir(), "image-build-stubs-"));
  await writeStubs();
  buildspec = await readBuildspec(join(repoRoot, "infra", "buildspecs", "image-build.yml"));
});

afterEach(async () => {
  await rm(stubs, { recursive: true, force: true });
});

describe("image-build buildspec", () => {
  it("is a bash buildspec 0.2 that exports the image URI and digest", () => {
    expect(String(buildspec.version)).toBe("0.2");
    expect(buildspec.env?.shell).toBe("bash");
    expect(buildspec.env?.["exported-variables"]).toEqual(
      expect.arrayContaining(["IMAGE_URI", "IMAGE_DIGEST", "IMAGE_TAG", "IMAGE_VARIANT"]),
    );
  });

  it("builds the CPU Dockerfile, pushes a unique tag and exports the digest ECR reports", async () => {
    const result = await build({});

    expect(result.exitCode, result.output).toBe(0);
    expect(result.exported).toEqual({
      IMAGE_URI: `${REGISTRY}/decision-adapter@${DIGEST}`,
      IMAGE_DIGEST: DIGEST,
      IMAGE_TAG: "cpu-build-7",
      IMAGE_VARIANT: "cpu",
    });
    const dockerBuild = result.commands.find((c) => c.startsWith("docker build"));
    expect(dockerBuild).toContain("-f infra/docker/Dockerfile.cpu");
    expect(dockerBuild).toContain(`-t ${REGISTRY}/decision-adapter:cpu-build-7 .`);
    expect(dockerBuild).not.toContain("CUDA_ADDON");
    expect(result.commands).toContain(`docker push ${REGISTRY}/decision-adapter:cpu-build-7`);
    expect(result.commands.some((c) => c.includes("describe-images") && c.includes("imageTag=cpu-build-7"))).toBe(true);
  });

  it("passes the CUDA addon choice and architectures to the CUDA build", async () => {
    const result = await build({ IMAGE_VARIANT: "cuda", CUDA_ADDON: "source", CUDA_ARCHITECTURES: "89;90" });

    expect(result.exitCode, result.output).toBe(0);
    const dockerBuild = result.commands.find((c) => c.startsWith("docker build"));
    expect(dockerBuild).toContain("-f infra/docker/Dockerfile.cuda");
    expect(dockerBuild).toContain("--build-arg CUDA_ADDON=source --build-arg CUDA_ARCHITECTURES=89;90");
    expect(result.exported.IMAGE_URI).toBe(`${REGISTRY}/decision-adapter@${DIGEST}`);
  });

  it("stops before building when the variant is unknown", async () => {
    const result = await build({ IMAGE_VARIANT: "rocm" });

    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain("IMAGE_VARIANT must be cpu or cuda, not 'rocm'");
    expect(result.commands.some((c) => c.startsWith("docker build"))).toBe(false);
    expect(result.exported.IMAGE_URI).toBeUndefined();
  });

  it("fails instead of exporting a URI when ECR reports no digest", async () => {
    const result = await build({ STUB_DIGEST: "None" });

    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain("ECR returned no digest for decision-adapter:cpu-build-7");
    expect(result.exported.IMAGE_URI).toBeUndefined();
  });

  it("exports what the console's build view shows as the image outputs", async () => {
    const result = await build({ IMAGE_VARIANT: "cuda" });
    const view = buildOf(
      {
        id: "decision-console-image-build:abc",
        projectName: "decision-console-image-build",
        buildStatus: "SUCCEEDED",
        exportedEnvironmentVariables: Object.entries(result.exported).map(([name, value]) => ({ name, value })),
      },
      "image",
    );

    expect(view.outputs.imageUri).toBe(`${REGISTRY}/decision-adapter@${DIGEST}`);
    expect(view.outputs.imageDigest).toBe(DIGEST);
    expect(view.variant).toBe("cuda");
  });
});
