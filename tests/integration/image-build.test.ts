import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Buildspec, readBuildspec } from "../../infra/test-support/codebuild-emulator.ts";
import {
  STUB_DIGEST as DIGEST,
  STUB_REGISTRY as REGISTRY,
  type RegistryStubs,
  registryStubs,
} from "../../infra/test-support/registry-stubs.ts";
import { buildOf } from "../../server/builds/build-view.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

let stubs: RegistryStubs;
let buildspec: Buildspec;

const build = (env: Record<string, string>) =>
  stubs.build(buildspec, repoRoot, {
    CODEBUILD_BUILD_ARN: "arn:aws:codebuild:eu-west-1:123456789012:build/decision-console-image-build:abc",
    ...env,
  });

beforeEach(async () => {
  stubs = await registryStubs();
  buildspec = await readBuildspec(join(repoRoot, "infra", "buildspecs", "image-build.yml"));
});

afterEach(async () => {
  await stubs.remove();
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
