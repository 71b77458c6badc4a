import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BatchGetBuildsCommand, CodeBuildClient, StartBuildCommand, StopBuildCommand } from "@aws-sdk/client-codebuild";
import { ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { mockClient } from "aws-sdk-client-mock";
import "aws-sdk-client-mock-vitest/extend";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { modelPresets } from "@/server/presets/models.ts";
import { closeConsoleStore } from "@/server/store/console-database.ts";

// `server-only` throws outside a React Server Components bundle; Next.js, not vitest, enforces it.
vi.mock("server-only", () => ({}));

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "build-routes-"));
const saved = { ...process.env };
const codeBuild = mockClient(CodeBuildClient);
const s3 = mockClient(S3Client);
let builds: typeof import("./route.ts");
let build: typeof import("./[id]/route.ts");
let presets: typeof import("../model-presets/route.ts");
let stop: typeof import("./[id]/stop/route.ts");
let retry: typeof import("./[id]/retry/route.ts");

const base = "http://127.0.0.1:3000";
const post = (body: unknown) =>
  new Request(`${base}/api/builds`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  Object.assign(process.env, {
    CONSOLE_DATA_DIR: dataDir,
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "test",
    AWS_SECRET_ACCESS_KEY: "test",
    // Local mode: builds must take the same path as on AWS (no mode branch), sources included.
    CONSOLE_MODE: "local",
    CONSOLE_ARTIFACT_BUCKET: "artifacts",
  });
  builds = await import("./route.ts");
  build = await import("./[id]/route.ts");
  presets = await import("../model-presets/route.ts");
  stop = await import("./[id]/stop/route.ts");
  retry = await import("./[id]/retry/route.ts");
});

afterAll(async () => {
  await closeConsoleStore();
  process.env = saved;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("build routes' bad input", () => {
  it("rejects a model build pinned to a branch, and starts nothing", async () => {
    const gguf = { ...modelPresets[0]!.gguf, revision: "main" };
    const response = await builds.POST(post({ kind: "model", gguf }));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /^gguf\.revision: must be a 40-hex commit/,
    );
    expect(codeBuild).not.toHaveReceivedAnyCommand();
  });

  it("rejects an image build variant other than cpu or cuda", async () => {
    const response = await builds.POST(post({ kind: "image", variant: "rocm" }));
    expect(response.status).toBe(400);
    expect(codeBuild).not.toHaveReceivedAnyCommand();
  });

  it("rejects a malformed build id before asking CodeBuild", async () => {
    const response = await build.GET(new Request(`${base}/api/builds/x`), { params: Promise.resolve({ id: "x" }) });
    expect(response.status).toBe(400);
    expect(codeBuild).not.toHaveReceivedAnyCommand();
  });
});

describe("POST /api/builds", () => {
  it.each([
    ["model", { kind: "model", gguf: modelPresets[0]!.gguf }],
    ["image", { kind: "image", variant: "cpu" }],
  ])(
    "uploads a %s build's source archive and starts the build from it, in local mode as on AWS",
    async (_kind, body) => {
      codeBuild.reset();
      s3.reset();
      s3.on(ListObjectsV2Command).resolves({ KeyCount: 0 });
      s3.on(PutObjectCommand).resolves({});
      codeBuild.on(StartBuildCommand).resolves({ build: { id: "p:1", projectName: "decision-console-model-package" } });
      await builds.POST(post(body));
      const key = s3.commandCalls(PutObjectCommand)[0]?.args[0].input.Key;
      expect(key).toMatch(/^build-sources\/[0-9a-f]{64}\.zip$/);
      expect(codeBuild).toHaveReceivedCommandWith(StartBuildCommand, {
        sourceTypeOverride: "S3",
        sourceLocationOverride: `artifacts/${key}`,
      });
    },
  );
});

describe("GET /api/model-presets", () => {
  it("lists the exactly pinned Qwen3.5-4B preset", async () => {
    const body = (await (await presets.GET(new Request(`${base}/api/model-presets`))).json()) as {
      presets: { gguf: { sha256: string; bytes: number } }[];
    };
    expect(body.presets[0]?.gguf).toMatchObject({
      sha256: "13c16f426047e2de38cd075bdade4a7bcbc8c774384876f677740cda65f8a983",
      bytes: 3_013_027_808,
    });
  });
});

describe("POST /api/builds/[id]/stop and /retry", () => {
  const id = "decision-console-model-package:0b5c";
  const failed = {
    id,
    projectName: "decision-console-model-package",
    buildStatus: "FAILED" as const,
    source: { type: "S3" as const, location: "artifacts/build-sources/abc.zip" },
    environment: {
      type: "LINUX_CONTAINER" as const,
      image: "img",
      computeType: "BUILD_GENERAL1_SMALL" as const,
      environmentVariables: [{ name: "HF_FILE", value: "m.gguf", type: "PLAINTEXT" as const }],
    },
  };
  const postTo = (path: string) => new Request(`${base}${path}`, { method: "POST", headers: { origin: base } });
  const params = { params: Promise.resolve({ id }) };

  it("retries a failed build from the same source (202, the new build) and stops a running one", async () => {
    codeBuild.reset();
    codeBuild.on(BatchGetBuildsCommand).resolves({ builds: [failed] });
    codeBuild.on(StartBuildCommand).resolves({
      build: { id: `${failed.projectName}:1d2e`, projectName: failed.projectName, buildStatus: "IN_PROGRESS" },
    });
    const retried = await retry.POST(postTo(`/api/builds/${id}/retry`), params);
    expect(retried.status).toBe(202);
    expect(await retried.json()).toMatchObject({ id: `${failed.projectName}:1d2e`, status: "IN_PROGRESS" });
    expect(codeBuild).toHaveReceivedCommandWith(StartBuildCommand, {
      projectName: failed.projectName,
      sourceLocationOverride: "artifacts/build-sources/abc.zip",
    });
    codeBuild.on(BatchGetBuildsCommand).resolves({ builds: [{ ...failed, buildStatus: "IN_PROGRESS" }] });
    codeBuild.on(StopBuildCommand).resolves({ build: { ...failed, buildStatus: "IN_PROGRESS" } });
    const stopped = await stop.POST(postTo(`/api/builds/${id}/stop`), params);
    expect(stopped.status).toBe(202);
    expect(codeBuild).toHaveReceivedCommandWith(StopBuildCommand, { id });
    const refused = await retry.POST(postTo(`/api/builds/${id}/retry`), params);
    expect(refused.status).toBe(409);
  });
});
