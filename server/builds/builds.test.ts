import { CloudWatchLogsClient, GetLogEventsCommand } from "@aws-sdk/client-cloudwatch-logs";
import {
  BatchGetBuildsCommand,
  CodeBuildClient,
  ListBuildsForProjectCommand,
  type Build as SdkBuild,
  StartBuildCommand,
} from "@aws-sdk/client-codebuild";
import { mockClient } from "aws-sdk-client-mock";
import "aws-sdk-client-mock-vitest/extend";
import { beforeEach, describe, expect, it } from "vitest";
import { startBuildRequestSchema } from "../../contract/builds/builds.ts";
import { buildProjects } from "../../tests/support/console-settings.ts";
import { modelPresets } from "../presets/models.ts";
import { tailBuildLogs } from "./build-logs.ts";
import { getBuild, listBuilds, startBuild } from "./builds.ts";

const codeBuild = mockClient(CodeBuildClient);
const logs = mockClient(CloudWatchLogsClient);
const client = new CodeBuildClient({ region: "us-east-1" });
const logsClient = new CloudWatchLogsClient({ region: "us-east-1" });
const projects = buildProjects;
const preset = modelPresets[0]!;

function sdkBuild(overrides: Partial<SdkBuild> = {}): SdkBuild {
  return {
    id: "model-pkg:0b5c",
    projectName: "model-pkg",
    buildStatus: "SUCCEEDED",
    currentPhase: "COMPLETED",
    startTime: new Date("2026-11-30T10:00:00Z"),
    endTime: new Date("2026-11-30T10:04:00Z"),
    phases: [
      {
        phaseType: "SUBMITTED",
        phaseStatus: "SUCCEEDED",
        startTime: new Date("2026-11-30T10:00:00Z"),
        endTime: new Date("2026-11-30T10:00:01Z"),
        durationInSeconds: 1,
      },
      {
        phaseType: "BUILD",
        phaseStatus: "SUCCEEDED",
        startTime: new Date("2026-11-30T10:00:01Z"),
        endTime: new Date("2026-11-30T10:04:00Z"),
        durationInSeconds: 239,
        contexts: [{ statusCode: "", message: "" }],
      },
    ],
    exportedEnvironmentVariables: [
      { name: "MODEL_DATA_URL", value: "s3://bucket/models/abc/model.tar.gz" },
      { name: "MODEL_SHA256", value: preset.gguf.sha256 },
    ],
    logs: { groupName: "/aws/codebuild/model-pkg", streamName: "0b5c" },
    ...overrides,
  };
}

describe("builds", () => {
  beforeEach(() => {
    codeBuild.reset();
    logs.reset();
  });

  it("starts a model packaging build with the pinned GGUF and tokenizer as packager variables", async () => {
    codeBuild.on(StartBuildCommand).resolves({ build: sdkBuild({ buildStatus: "IN_PROGRESS" }) });
    const request = startBuildRequestSchema.parse({ kind: "model", gguf: preset.gguf, tokenizer: preset.tokenizer });
    await startBuild(client, projects, request, { location: "bucket/build-sources/abc.zip" });
    const v = (name: string, value: string) => ({ name, value, type: "PLAINTEXT" as const });
    expect(codeBuild).toHaveReceivedCommandExactlyOnceWith(StartBuildCommand, {
      projectName: "model-pkg",
      environmentVariablesOverride: [
        v("HF_REPO", "bartowski/Qwen_Qwen3.5-4B-GGUF"),
        v("HF_REVISION", "4168f45a16a1290d65a4ec0fa312ae917a4c15d6"),
        v("HF_FILE", "Qwen_Qwen3.5-4B-Q4_K_M.gguf"),
        v("GGUF_SHA256", "13c16f426047e2de38cd075bdade4a7bcbc8c774384876f677740cda65f8a983"),
        v("COMPRESSION", "gzip"),
        v("TOKENIZER_REPO", "Qwen/Qwen3.5-4B"),
        v("TOKENIZER_REVISION", "851bf6e806efd8d0a36b00ddf55e13ccb7b8cd0a"),
      ],
      sourceTypeOverride: "S3",
      sourceLocationOverride: "bucket/build-sources/abc.zip",
    });
  });

  it("starts a CUDA image build from uploaded sources", async () => {
    codeBuild.on(StartBuildCommand).resolves({ build: sdkBuild({ id: "image-build:1", projectName: "image-build" }) });
    await startBuild(client, projects, startBuildRequestSchema.parse({ kind: "image", variant: "cuda" }), {
      location: "bucket/build-sources/abc.zip",
    });
    expect(codeBuild).toHaveReceivedCommandExactlyOnceWith(StartBuildCommand, {
      projectName: "image-build",
      environmentVariablesOverride: [{ name: "IMAGE_VARIANT", value: "cuda", type: "PLAINTEXT" }],
      sourceTypeOverride: "S3",
      sourceLocationOverride: "bucket/build-sources/abc.zip",
    });
  });

  it("rejects a floating revision such as main", () => {
    const parsed = startBuildRequestSchema.safeParse({ kind: "model", gguf: { ...preset.gguf, revision: "main" } });
    expect(parsed.error?.issues[0]?.message).toMatch(/40-hex commit, not a branch/);
  });

  it("reads phases, status and the exported model URI and sha256", async () => {
    codeBuild.on(BatchGetBuildsCommand).resolves({ builds: [sdkBuild()] });
    const build = await getBuild(client, projects, "model-pkg:0b5c");
    expect(build).toMatchObject({
      id: "model-pkg:0b5c",
      kind: "model",
      status: "SUCCEEDED",
      outputs: {
        modelDataUrl: "s3://bucket/models/abc/model.tar.gz",
        modelSha256: preset.gguf.sha256,
        imageUri: null,
        imageDigest: null,
      },
      logs: { tailPath: "/api/builds/model-pkg%3A0b5c/logs" },
    });
    expect(build.phases.map((p) => [p.type, p.status, p.durationSeconds])).toEqual([
      ["SUBMITTED", "SUCCEEDED", 1],
      ["BUILD", "SUCCEEDED", 239],
    ]);
  });

  it("answers 404 for a build of a project that is not the console's", async () => {
    codeBuild.on(BatchGetBuildsCommand).resolves({ builds: [sdkBuild({ projectName: "someone-else" })] });
    await expect(getBuild(client, projects, "someone-else:1")).rejects.toMatchObject({ status: 404 });
  });

  it("lists both projects' builds newest first, and a project not created yet as empty", async () => {
    codeBuild.on(ListBuildsForProjectCommand, { projectName: "model-pkg" }).resolves({ ids: ["model-pkg:0b5c"] });
    codeBuild
      .on(ListBuildsForProjectCommand, { projectName: "image-build" })
      .rejects(Object.assign(new Error("Project cannot be found"), { name: "ResourceNotFoundException" }));
    codeBuild.on(BatchGetBuildsCommand).resolves({ builds: [sdkBuild()] });
    const builds = await listBuilds(client, projects);
    expect(builds.map((b) => b.id)).toEqual(["model-pkg:0b5c"]);
    expect(codeBuild).toHaveReceivedCommandWith(BatchGetBuildsCommand, { ids: ["model-pkg:0b5c"] });
  });

  it("tails the log, then returns only newer lines with the forward token", async () => {
    logs
      .on(GetLogEventsCommand)
      .resolvesOnce({
        events: [{ timestamp: Date.UTC(2026, 10, 30, 10), message: "[Container] sha256 ok\n" }],
        nextForwardToken: "f/1",
      })
      .resolvesOnce({ events: [], nextForwardToken: "f/1" });
    const build = await getBuildWithLogs();
    const first = await tailBuildLogs(logsClient, build, null);
    expect(first).toEqual({
      lines: [{ timestamp: "2026-11-30T10:00:00.000Z", message: "[Container] sha256 ok" }],
      nextToken: "f/1",
    });
    expect(logs).toHaveReceivedNthCommandWith(GetLogEventsCommand, 1, {
      logGroupName: "/aws/codebuild/model-pkg",
      logStreamName: "0b5c",
      startFromHead: false,
    });
    const next = await tailBuildLogs(logsClient, build, first.nextToken);
    expect(next.lines).toEqual([]);
    expect(logs).toHaveReceivedNthCommandWith(GetLogEventsCommand, 2, { nextToken: "f/1", startFromHead: true });
  });

  async function getBuildWithLogs() {
    codeBuild.on(BatchGetBuildsCommand).resolves({ builds: [sdkBuild()] });
    return getBuild(client, projects, "model-pkg:0b5c");
  }
});
