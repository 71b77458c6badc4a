import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CloudWatchLogsClient, GetLogEventsCommand } from "@aws-sdk/client-cloudwatch-logs";
import {
  BatchGetBuildsCommand,
  type Build,
  CodeBuildClient,
  StartBuildCommand,
  StopBuildCommand,
} from "@aws-sdk/client-codebuild";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { buildSourcesDir, type ControlPlane, localClientConfig, startControlPlane } from "@decision-console/local-aws";
import {
  allExit,
  imageDigest,
  imageSourceHash,
  isRunning,
  parentOf,
  processesRunning,
  testStackFixture,
} from "@decision-console/local-aws/testing";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILDSPEC_PATHS, IMAGE_BUILD_PROJECT, MODEL_PACKAGE_PROJECT } from "../../contract/stack/console-contract.ts";
import { REPO_ROOT } from "../../infra/local-stack/workspace-fixture.ts";
import { consoleClientsFor } from "../../server/aws/local-console-clients.ts";
import { type BuildSourceRequest, buildSourceFiles } from "../../server/builds/build-sources.ts";
import { uploadBuildSources } from "../../server/builds/source-upload.ts";

const LOCAL_ARTIFACT_BUCKET = testStackFixture().bucket;

/**
 * Local CodeBuild runs what the StartBuild call's source archive holds, never the working tree: each test builds
 * its own "working tree" (a copy of the files the console would upload), uploads it with the console's code and
 * credentials (held to the console's policy) and then changes the copy or the archive. What the console may not
 * do (write outside build-sources/, stop a build) is done as admin.
 */
let dataDir: string;
let plane: ControlPlane;
let s3: S3Client;
let codeBuild: CodeBuildClient;
let admin: { s3: S3Client; codeBuild: CodeBuildClient };
let modelFile: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-codebuild-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0 });
  s3 = new S3Client({ ...localClientConfig(plane, "console"), forcePathStyle: true });
  codeBuild = new CodeBuildClient(localClientConfig(plane, "console"));
  admin = {
    s3: new S3Client({ ...localClientConfig(plane), forcePathStyle: true }),
    codeBuild: new CodeBuildClient(localClientConfig(plane)),
  };
  // A local build packages only files under <data>/build-sources (SOURCE_PATH).
  modelFile = path.join(buildSourcesDir(dataDir), "model.gguf");
  fs.mkdirSync(path.dirname(modelFile), { recursive: true });
  fs.writeFileSync(modelFile, Buffer.concat([Buffer.from("GGUF"), Buffer.alloc(4096, 7)]));
});

afterAll(async () => {
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A copy of the repository files a build of this kind reads, as the console's working tree would hold them. */
function workingTree(request: BuildSourceRequest): { root: string; files: string[] } {
  const root = fs.mkdtempSync(path.join(dataDir, "tree-"));
  const files = buildSourceFiles(REPO_ROOT, request);
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.copyFileSync(path.join(REPO_ROOT, file), path.join(root, file));
  }
  return { root, files };
}

/** The console's own upload of a working tree, on the console's own clients. */
const uploadWithConsole = (tree: { root: string; files: string[] }) =>
  uploadBuildSources(consoleClientsFor(plane).s3, LOCAL_ARTIFACT_BUCKET, tree.root, tree.files);

async function putArchive(key: string, entries: Record<string, Uint8Array>, client = s3): Promise<string> {
  await client.send(new PutObjectCommand({ Bucket: LOCAL_ARTIFACT_BUCKET, Key: key, Body: zipSync(entries) }));
  return `${LOCAL_ARTIFACT_BUCKET}/${key}`;
}

function entriesOf(root: string, files: string[]): Record<string, Uint8Array> {
  return Object.fromEntries(files.map((file) => [file, fs.readFileSync(path.join(root, file))]));
}

async function startBuild(project: string, location: string, variables: Record<string, string>): Promise<string> {
  const { build: started } = await codeBuild.send(
    new StartBuildCommand({
      projectName: project,
      sourceTypeOverride: "S3",
      sourceLocationOverride: location,
      environmentVariablesOverride: Object.entries(variables).map(([name, value]) => ({ name, value })),
    }),
  );
  return started!.id!;
}

async function build(project: string, location: string, variables: Record<string, string>): Promise<Build> {
  const id = await startBuild(project, location, variables);
  await plane.builds.settled(id);
  const { builds } = await codeBuild.send(new BatchGetBuildsCommand({ ids: [id] }));
  return builds![0]!;
}

async function buildLog(done: Build): Promise<string> {
  const logs = new CloudWatchLogsClient(localClientConfig(plane));
  const { events } = await logs.send(
    new GetLogEventsCommand({ logGroupName: done.logs!.groupName!, logStreamName: done.logs!.streamName! }),
  );
  return (events ?? []).map((event) => event.message).join("\n");
}

const MODEL_BUILDSPEC = BUILDSPEC_PATHS.model;
const packaging = () => ({
  SOURCE_PATH: modelFile,
  ARTIFACT_PREFIX: `models/test/${crypto.randomUUID()}`,
  COMPRESSION: "gzip",
});
/** CodeBuild's phase types in the order a build that runs to the end records them. */
const EVERY_PHASE = [
  "SUBMITTED",
  "QUEUED",
  "PROVISIONING",
  "DOWNLOAD_SOURCE",
  "INSTALL",
  "PRE_BUILD",
  "BUILD",
  "POST_BUILD",
  "UPLOAD_ARTIFACTS",
  "FINALIZING",
  "COMPLETED",
];
const phase = (done: Build, type: string) => done.phases?.find((p) => p.phaseType === type);
const exported = (done: Build) =>
  Object.fromEntries((done.exportedEnvironmentVariables ?? []).map((v) => [v.name, v.value]));

describe("local CodeBuild runs the source archive the build names", { timeout: 120_000 }, () => {
  it("packages a model after a file it needs was deleted from the working tree, since the archive has it", async () => {
    const tree = workingTree({ kind: "model" });
    const { location } = await uploadWithConsole(tree);
    fs.rmSync(path.join(tree.root, "infra/packager/archive.ts"));
    fs.rmSync(path.join(tree.root, "infra/buildspecs/model-package.yml"));
    const done = await build(MODEL_PACKAGE_PROJECT, location, packaging());
    expect(done.buildStatus).toBe("SUCCEEDED");
    expect(done.phases?.map((p) => p.phaseType)).toEqual(EVERY_PHASE);
    expect(exported(done).MODEL_SHA256).toBe(createHash("sha256").update(fs.readFileSync(modelFile)).digest("hex"));
  });

  it("runs the archive's buildspec with the build's variables, not the working tree's", async () => {
    const buildspec = [
      "version: 0.2",
      "env:",
      "  variables: { GREETING: from-buildspec }",
      "  exported-variables: [FROM_ARCHIVE, GREETING, STEP]",
      "phases:",
      "  install:",
      "    commands: [STEP=installed]",
      "  build:",
      '    commands: ["FROM_ARCHIVE=$(cat only-in-archive.txt)", "STEP=$STEP-built"]',
    ].join("\n");
    const location = await putArchive("build-sources/custom.zip", {
      "infra/buildspecs/model-package.yml": Buffer.from(buildspec),
      "only-in-archive.txt": Buffer.from("archive text"),
    });
    const done = await build(MODEL_PACKAGE_PROJECT, location, { GREETING: "from-start-build" });
    expect(done.buildStatus).toBe("SUCCEEDED");
    expect(exported(done)).toEqual({
      FROM_ARCHIVE: "archive text",
      GREETING: "from-start-build",
      STEP: "installed-built",
    });
  });

  it("fails DOWNLOAD_SOURCE with YAML_FILE_ERROR when the archive has no buildspec at the project's path", async () => {
    const tree = workingTree({ kind: "model" });
    const files = tree.files.filter((file) => file !== "infra/buildspecs/model-package.yml");
    const location = await putArchive("build-sources/no-buildspec.zip", entriesOf(tree.root, files));
    const done = await build(MODEL_PACKAGE_PROJECT, location, packaging());
    expect(done.buildStatus).toBe("FAILED");
    expect(phase(done, "DOWNLOAD_SOURCE")?.phaseStatus).toBe("FAILED");
    expect(phase(done, "DOWNLOAD_SOURCE")?.contexts?.[0]).toMatchObject({
      statusCode: "YAML_FILE_ERROR",
      message: expect.stringMatching(
        /^stat \/.*\/src\/infra\/buildspecs\/model-package\.yml: no such file or directory$/,
      ),
    });
    expect(phase(done, "BUILD")).toBeUndefined();
  });

  it("fails the BUILD phase with CodeBuild's command error when a module the packager imports is not in the archive", async () => {
    const tree = workingTree({ kind: "model" });
    const files = tree.files.filter((file) => file !== "infra/packager/archive.ts");
    const location = await putArchive("build-sources/no-archive-module.zip", entriesOf(tree.root, files));
    const done = await build(MODEL_PACKAGE_PROJECT, location, packaging());
    expect(done.buildStatus).toBe("FAILED");
    expect(phase(done, "BUILD")?.contexts?.[0]).toEqual({
      statusCode: "COMMAND_EXECUTION_ERROR",
      message: "Error while executing command: npx tsx infra/packager/cli.ts > packager.env. Reason: exit status 1",
    });
  });

  it("fails DOWNLOAD_SOURCE with CLIENT_ERROR when the source object does not exist", async () => {
    const done = await build(MODEL_PACKAGE_PROJECT, `${LOCAL_ARTIFACT_BUCKET}/build-sources/absent.zip`, packaging());
    expect(done.buildStatus).toBe("FAILED");
    expect(phase(done, "DOWNLOAD_SOURCE")?.contexts?.[0]).toEqual({
      statusCode: "CLIENT_ERROR",
      message: `NoSuchKey: The specified key does not exist. for primary source and source version arn:aws:s3:::${LOCAL_ARTIFACT_BUCKET}/build-sources/absent.zip`,
    });
  });

  it("answers the build's source (type, location, the project's buildspec) in BatchGetBuilds, as CodeBuild does", async () => {
    const location = `${LOCAL_ARTIFACT_BUCKET}/build-sources/answered-source.zip`;
    const done = await build(MODEL_PACKAGE_PROJECT, location, packaging());
    expect(done.source).toEqual({ type: "S3", location, buildspec: MODEL_BUILDSPEC });
  });

  it("fails DOWNLOAD_SOURCE with CLIENT_ERROR when the project's role may not read the source", async () => {
    const location = await putArchive(
      "models/not-a-source.zip",
      { "infra/buildspecs/model-package.yml": Buffer.from("") },
      admin.s3,
    );
    const done = await build(MODEL_PACKAGE_PROJECT, location, packaging());
    expect(done.buildStatus).toBe("FAILED");
    expect(phase(done, "DOWNLOAD_SOURCE")?.contexts?.[0]).toEqual({
      statusCode: "CLIENT_ERROR",
      message: `AccessDenied: Access Denied for primary source and source version arn:aws:s3:::${location}`,
    });
  });

  it("refuses an archive entry that would land outside the build's directory, and writes nothing there", async () => {
    const escaped = path.join(dataDir, "builds", "escaped.txt");
    const location = await putArchive("build-sources/traversal.zip", { "../escaped.txt": Buffer.from("x") });
    const done = await build(MODEL_PACKAGE_PROJECT, location, packaging());
    expect(phase(done, "DOWNLOAD_SOURCE")?.contexts?.[0]?.statusCode).toBe("CLIENT_ERROR");
    expect(phase(done, "DOWNLOAD_SOURCE")?.contexts?.[0]?.message).toMatch(/outside the source directory/);
    expect(fs.existsSync(escaped)).toBe(false);
  });

  it("fails INSTALL when the archive's lockfile is not the one local CodeBuild's dependencies come from", async () => {
    const tree = workingTree({ kind: "model" });
    const entries = entriesOf(tree.root, tree.files);
    entries["package-lock.json"] = Buffer.from('{"lockfileVersion": 3, "packages": {}}');
    const done = await build(
      MODEL_PACKAGE_PROJECT,
      await putArchive("build-sources/other-lock.zip", entries),
      packaging(),
    );
    expect(done.buildStatus).toBe("FAILED");
    expect(phase(done, "INSTALL")?.phaseStatus).toBe("FAILED");
    expect(phase(done, "BUILD")).toBeUndefined();
  });

  it("records an image build from the archive's adapter after the working tree lost a file", async () => {
    const tree = workingTree({ kind: "image", variant: "cpu" });
    const adapter = testStackFixture().imageRepositories.find((repository) => repository.name === "decision-adapter")!;
    const expected = imageDigest(adapter.name, imageSourceHash(tree.root, adapter.sources).hash, "cpu");
    const { location } = await uploadWithConsole(tree);
    fs.rmSync(path.join(tree.root, "tsconfig.base.json"));
    fs.writeFileSync(path.join(tree.root, "adapter/src/cli.ts"), "changed after upload");
    const done = await build(IMAGE_BUILD_PROJECT, location, { IMAGE_VARIANT: "cpu" });
    expect(done.buildStatus).toBe("SUCCEEDED");
    expect(exported(done).IMAGE_DIGEST).toBe(expected);
  });

  it("fails an image build whose archive lacks a file the Dockerfile copies, as BuildKit reports it", async () => {
    const tree = workingTree({ kind: "image", variant: "cuda" });
    const files = tree.files.filter((file) => file !== "tsconfig.base.json");
    const location = await putArchive("build-sources/no-tsconfig.zip", entriesOf(tree.root, files));
    const done = await build(IMAGE_BUILD_PROJECT, location, { IMAGE_VARIANT: "cuda" });
    expect(done.buildStatus).toBe("FAILED");
    expect(phase(done, "BUILD")?.contexts?.[0]?.message).toMatch(/"\/tsconfig\.base\.json": not found$/);
  });
});

describe("a local build's phases and logs", { timeout: 120_000 }, () => {
  it("records an image build through CodeBuild's phases and logs the exported image digest", async () => {
    const { location } = await uploadWithConsole(workingTree({ kind: "image", variant: "cpu" }));
    const done = await build(IMAGE_BUILD_PROJECT, location, { IMAGE_VARIANT: "cpu" });
    expect(done.buildStatus).toBe("SUCCEEDED");
    expect(done.phases?.map((p) => p.phaseType)).toEqual(EVERY_PHASE);
    const digest = exported(done).IMAGE_DIGEST;
    expect(digest).toBe(plane.registry.digestForTag("decision-adapter", "cpu"));
    expect(exported(done).IMAGE_URI).toBe(`000000000000.dkr.ecr.us-east-1.amazonaws.com/decision-adapter@${digest}`);
    expect(await buildLog(done)).toContain(digest);
  });

  it("fails a model-packaging build whose source is missing, with the packager's reason in the logs", async () => {
    const { location } = await uploadWithConsole(workingTree({ kind: "model" }));
    const done = await build(MODEL_PACKAGE_PROJECT, location, {
      ...packaging(),
      SOURCE_PATH: path.join(buildSourcesDir(dataDir), "absent.gguf"),
    });
    expect(done.buildStatus).toBe("FAILED");
    expect(phase(done, "BUILD")?.phaseStatus).toBe("FAILED");
    expect(phase(done, "BUILD")?.contexts?.[0]?.message).toMatch(/exit status 1/);
    expect(await buildLog(done)).toMatch(/packager failed: invalid_input: Cannot read the local model/);
  });
});

describe("a local build's process", { timeout: 120_000 }, () => {
  it("gets only the variables its buildspec documents and keys of its own, revoked when it ends", async () => {
    const buildspec = [
      "version: 0.2",
      "env:",
      "  variables: { GREETING: from-buildspec }",
      "  exported-variables: [SEEN, AWS_ACCESS_KEY_ID]",
      "phases:",
      "  build:",
      "    commands:",
      '      - for name in NODE_OPTIONS LD_PRELOAD BASH_ENV CONSOLE_ONLY; do SEEN="$SEEN$(printenv $name || echo unset) "; done',
      '      - SEEN="$SEEN$GREETING $COMPRESSION"',
    ].join("\n");
    const location = await putArchive("build-sources/environment.zip", {
      "infra/buildspecs/model-package.yml": Buffer.from(buildspec),
    });
    const marker = path.join(dataDir, "bash-env-ran");
    const bashEnv = path.join(dataDir, "bash-env.sh");
    fs.writeFileSync(bashEnv, `touch ${JSON.stringify(marker)}\n`);
    process.env.CONSOLE_ONLY = "the console's own environment";
    let done: Build;
    try {
      done = await build(MODEL_PACKAGE_PROJECT, location, {
        NODE_OPTIONS: "--require /tmp/evil.cjs",
        LD_PRELOAD: "/tmp/evil.so",
        BASH_ENV: bashEnv,
        GREETING: "from-start-build",
        COMPRESSION: "none",
      });
    } finally {
      delete process.env.CONSOLE_ONLY;
    }
    expect(done.buildStatus).toBe("SUCCEEDED");
    expect(exported(done).SEEN).toBe("unset unset unset unset from-start-build none");
    expect(fs.existsSync(marker)).toBe(false);
    expect(await buildLog(done)).toContain(
      "Variables this build's buildspec does not read were not passed to it: BASH_ENV, LD_PRELOAD, NODE_OPTIONS",
    );
    const key = exported(done).AWS_ACCESS_KEY_ID!;
    expect(Object.values(plane.credentials.keys).map((k) => k.accessKeyId)).not.toContain(key);
    expect(plane.credentials.find(key)).toBeUndefined();
  });

  it("ends with every process it started when StopBuild stops it", async () => {
    // The build runs in a PID namespace of its own (build-sandbox.ts): its processes are found by what they run.
    const duration = `300.${Date.now()}`;
    const buildspec = ["version: 0.2", "phases:", "  build:", "    commands:", `      - sleep ${duration} & wait`].join(
      "\n",
    );
    const location = await putArchive("build-sources/long.zip", {
      "infra/buildspecs/model-package.yml": Buffer.from(buildspec),
    });
    const id = await startBuild(MODEL_PACKAGE_PROJECT, location, {});
    const sleeping = () => processesRunning(["sleep", duration]);
    const deadline = Date.now() + 30_000;
    while (sleeping().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const [sleep] = sleeping();
    // The sleep and the build's shell that waits for it.
    const pids = [sleep!, parentOf(sleep!)];
    expect(pids.every(isRunning)).toBe(true);
    // The console's own role stops it (codebuild:StopBuild on its projects, as the Stop button sends it).
    await codeBuild.send(new StopBuildCommand({ id }));
    await plane.builds.settled(id);
    expect(await allExit(pids, 10_000)).toBe(true);
    const { builds } = await codeBuild.send(new BatchGetBuildsCommand({ ids: [id] }));
    expect(builds![0]!.buildStatus).toBe("STOPPED");
  });
});
