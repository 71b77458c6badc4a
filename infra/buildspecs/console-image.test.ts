import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONSOLE_IMAGE_BUILD_PROJECT, CONSOLE_IMAGE_BUILDSPEC } from "../../contract/stack/console-contract.ts";
import { type Buildspec, readBuildspec } from "../test-support/codebuild-emulator.ts";
import { type RegistryStubs, registryStubs, STUB_DIGEST, STUB_REGISTRY } from "../test-support/registry-stubs.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

let stubs: RegistryStubs;
let buildspec: Buildspec;

const build = (env: Record<string, string> = {}) =>
  stubs.build(buildspec, repoRoot, {
    CODEBUILD_BUILD_ARN: `arn:aws:codebuild:eu-west-1:123456789012:build/${CONSOLE_IMAGE_BUILD_PROJECT}:abc`,
    ...env,
  });

beforeEach(async () => {
  stubs = await registryStubs();
  buildspec = await readBuildspec(join(repoRoot, CONSOLE_IMAGE_BUILDSPEC));
});

afterEach(async () => {
  await stubs.remove();
});

describe("console-image buildspec", () => {
  it("builds Dockerfile.console, pushes a unique tag and exports the digest ECR reports", async () => {
    const result = await build();

    expect(result.exitCode, result.output).toBe(0);
    expect(result.exported).toEqual({
      IMAGE_URI: `${STUB_REGISTRY}/decision-console@${STUB_DIGEST}`,
      IMAGE_DIGEST: STUB_DIGEST,
      IMAGE_TAG: "console-build-7",
    });
    const dockerBuild = result.commands.find((c) => c.startsWith("docker build"));
    expect(dockerBuild).toContain("-f infra/docker/Dockerfile.console");
    expect(dockerBuild).toContain(`-t ${STUB_REGISTRY}/decision-console:console-build-7 .`);
    expect(dockerBuild).not.toContain("--build-arg");
    expect(result.commands).toContain(`docker push ${STUB_REGISTRY}/decision-console:console-build-7`);
  });

  it("builds from a mirrored base image when NODE_IMAGE is given", async () => {
    const mirror = `123456789012.dkr.ecr.eu-west-1.amazonaws.com/mirror/node@sha256:${"0".repeat(64)}`;
    const result = await build({ NODE_IMAGE: mirror, IMAGE_REPOSITORY: "team/console" });

    expect(result.exitCode, result.output).toBe(0);
    expect(result.commands.find((c) => c.startsWith("docker build"))).toContain(`--build-arg NODE_IMAGE=${mirror}`);
    expect(result.exported.IMAGE_URI).toBe(`${STUB_REGISTRY}/team/console@${STUB_DIGEST}`);
  });

  it("fails instead of exporting a URI when ECR reports no digest", async () => {
    const result = await build({ STUB_DIGEST: "None" });

    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain("ECR returned no digest for decision-console:console-build-7");
    expect(result.exported.IMAGE_URI).toBeUndefined();
  });
});
