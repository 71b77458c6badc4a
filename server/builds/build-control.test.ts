import { BatchGetBuildsCommand, CodeBuildClient, StartBuildCommand, StopBuildCommand } from "@aws-sdk/client-codebuild";
import { mockClient } from "aws-sdk-client-mock";
import "aws-sdk-client-mock-vitest/extend";
import { beforeEach, describe, expect, it } from "vitest";
import { buildProjects } from "../../tests/support/console-settings.ts";
import { retryBuild, stopBuild } from "./builds.ts";

const codeBuild = mockClient(CodeBuildClient);
const client = new CodeBuildClient({ region: "us-east-1" });
const projects = buildProjects;

const failed = {
  id: "model-pkg:1",
  projectName: "model-pkg",
  buildStatus: "FAILED" as const,
  source: { type: "S3" as const, location: "artifacts/build-sources/abc.zip" },
  environment: {
    type: "LINUX_CONTAINER" as const,
    image: "img",
    computeType: "BUILD_GENERAL1_SMALL" as const,
    environmentVariables: [
      { name: "ARTIFACT_BUCKET", value: "artifacts", type: "PLAINTEXT" as const },
      { name: "HF_REPO", value: "owner/model", type: "PLAINTEXT" as const },
      { name: "HF_REVISION", value: "a".repeat(40), type: "PLAINTEXT" as const },
      { name: "HF_FILE", value: "m.gguf", type: "PLAINTEXT" as const },
      { name: "GGUF_SHA256", value: "b".repeat(64), type: "PLAINTEXT" as const },
      { name: "COMPRESSION", value: "gzip", type: "PLAINTEXT" as const },
    ],
  },
};

beforeEach(() => codeBuild.reset());

describe("stopping and retrying a build", () => {
  it("retries an ended build with StartBuild on the same project, variables and source archive", async () => {
    codeBuild.on(BatchGetBuildsCommand).resolves({ builds: [failed] });
    codeBuild
      .on(StartBuildCommand)
      .resolves({ build: { id: "model-pkg:2", projectName: "model-pkg", buildStatus: "IN_PROGRESS" } });
    const retried = await retryBuild(client, projects, "model-pkg:1");
    expect(retried).toMatchObject({ id: "model-pkg:2", kind: "model", status: "IN_PROGRESS" });
    expect(codeBuild).toHaveReceivedCommandWith(StartBuildCommand, {
      projectName: "model-pkg",
      sourceTypeOverride: "S3",
      sourceLocationOverride: "artifacts/build-sources/abc.zip",
      environmentVariablesOverride: [
        { name: "HF_REPO", value: "owner/model", type: "PLAINTEXT" },
        { name: "HF_REVISION", value: "a".repeat(40), type: "PLAINTEXT" },
        { name: "HF_FILE", value: "m.gguf", type: "PLAINTEXT" },
        { name: "GGUF_SHA256", value: "b".repeat(64), type: "PLAINTEXT" },
        { name: "COMPRESSION", value: "gzip", type: "PLAINTEXT" },
      ],
    });
  });

  it("stops a build with StopBuild, and refuses with 409 to retry a running one", async () => {
    codeBuild.on(BatchGetBuildsCommand).resolves({ builds: [{ ...failed, buildStatus: "IN_PROGRESS" }] });
    codeBuild
      .on(StopBuildCommand)
      .resolves({ build: { ...failed, buildStatus: "IN_PROGRESS", currentPhase: "BUILD" } });
    expect(await stopBuild(client, projects, "model-pkg:1")).toMatchObject({ id: "model-pkg:1", kind: "model" });
    expect(codeBuild).toHaveReceivedCommandWith(StopBuildCommand, { id: "model-pkg:1" });
    await expect(retryBuild(client, projects, "model-pkg:1")).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/still running/),
    });
    expect(codeBuild).not.toHaveReceivedCommand(StartBuildCommand);
  });

  it("answers 404 for a build of another project", async () => {
    codeBuild.on(BatchGetBuildsCommand).resolves({ builds: [{ ...failed, projectName: "someone-else" }] });
    await expect(stopBuild(client, projects, "model-pkg:1")).rejects.toMatchObject({ status: 404 });
    expect(codeBuild).not.toHaveReceivedCommand(StopBuildCommand);
    await expect(retryBuild(client, projects, "model-pkg:1")).rejects.toMatchObject({ status: 404 });
    expect(codeBuild).not.toHaveReceivedCommand(StartBuildCommand);
  });
});
