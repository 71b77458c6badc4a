import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BatchGetBuildsCommand, type Build, CodeBuildClient, StartBuildCommand } from "@aws-sdk/client-codebuild";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ControlPlane, startControlPlane } from "../control-plane.ts";
import { localClientConfig } from "../stack.ts";
import { FIXTURE_PROJECTS } from "../test-support/fixture-projects.ts";
import { testStackFixture } from "../test-support/stack-fixture.ts";
import { buildSandbox, UNSANDBOXED_ENV } from "./build-sandbox.ts";

const LOCAL_ARTIFACT_BUCKET = testStackFixture().bucket;

/**
 * A local build runs as CodeBuild runs it, in a container of its own (security issue 25 item 10): started with the
 * console's key, its commands can neither read the shared credentials file (the admin key) nor list the data
 * directory, the working tree or the console user's home, and write only their own directory.
 */
let dataDir: string;
let plane: ControlPlane;
let codeBuild: CodeBuildClient;
let s3: S3Client;
const secretInHome = path.join(os.homedir(), `.build-sandbox-probe-${process.pid}`);

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "build-sandbox-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0, waitForEndpoints: false });
  s3 = new S3Client({ ...localClientConfig(plane, "console"), forcePathStyle: true });
  codeBuild = new CodeBuildClient(localClientConfig(plane, "console"));
  fs.writeFileSync(secretInHome, "the console user's own file");
}, 60_000);

afterAll(async () => {
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(secretInHome, { force: true });
});

async function build(commands: string[], exported: string[]): Promise<Build> {
  const buildspec = [
    "version: 0.2",
    "env:",
    `  exported-variables: [${exported.join(", ")}]`,
    "phases:",
    "  build:",
    "    commands:",
    ...commands.map((command) => `      - ${JSON.stringify(command)}`),
  ].join("\n");
  const key = `build-sources/${crypto.randomUUID()}.zip`;
  await s3.send(
    new PutObjectCommand({
      Bucket: LOCAL_ARTIFACT_BUCKET,
      Key: key,
      Body: zipSync({ "infra/buildspecs/model-package.yml": Buffer.from(buildspec) }),
    }),
  );
  const { build: started } = await codeBuild.send(
    new StartBuildCommand({
      projectName: FIXTURE_PROJECTS.modelPackage,
      sourceTypeOverride: "S3",
      sourceLocationOverride: `${LOCAL_ARTIFACT_BUCKET}/${key}`,
    }),
  );
  await plane.builds.settled(started!.id!);
  const { builds } = await codeBuild.send(new BatchGetBuildsCommand({ ids: [started!.id!] }));
  return builds![0]!;
}

const exported = (done: Build) =>
  Object.fromEntries((done.exportedEnvironmentVariables ?? []).map((v) => [v.name, v.value]));

/** A shell line that sets NAME to `read` when `probe` succeeds and to `refused` when it fails. */
const probe = (name: string, command: string) =>
  `${name}=$( (${command}) >/dev/null 2>&1 && echo read || echo refused)`;

describe("a local build started with the console's key", { timeout: 120_000 }, () => {
  it("cannot read the credentials file, the data directory, the working tree or the console user's home", async () => {
    const credentials = plane.credentials.file;
    const done = await build(
      [
        probe("CREDENTIALS", `cat ${credentials}`),
        probe("DATA_DIR", `ls ${dataDir}`),
        probe("DATABASE", `cat ${path.join(dataDir, "local-aws.sqlite")}`),
        probe("OBJECTS", `ls ${path.join(dataDir, "s3", "objects")}`),
        probe("WORKING_TREE", `cat ${path.join(testStackFixture().imageRepositories[0]!.sourceRoot, "package.json")}`),
        probe("HOME_FILE", `cat ${secretInHome}`),
        probe("OWN_SOURCE", "cat infra/buildspecs/model-package.yml"),
        probe("OWN_WRITE", 'echo x > "$CODEBUILD_SRC_DIR/written" && echo y > "$HOME/written"'),
        "KEY=$AWS_ACCESS_KEY_ID",
      ],
      ["CREDENTIALS", "DATA_DIR", "DATABASE", "OBJECTS", "WORKING_TREE", "HOME_FILE", "OWN_SOURCE", "OWN_WRITE", "KEY"],
    );
    expect(done.buildStatus).toBe("SUCCEEDED");
    const seen = exported(done);
    expect(seen).toMatchObject({
      CREDENTIALS: "refused",
      DATA_DIR: "refused",
      DATABASE: "refused",
      OBJECTS: "refused",
      WORKING_TREE: "refused",
      HOME_FILE: "refused",
      OWN_SOURCE: "read",
      OWN_WRITE: "read",
    });
    // Its own key only: neither the console's nor the admin's.
    expect(Object.values(plane.credentials.keys).map((key) => key.accessKeyId)).not.toContain(seen.KEY);
  });

  it("cannot have the control plane read a file for it through a link in its scratch directory", async () => {
    const done = await build(
      [`ln -sf ${plane.credentials.file} "$TMPDIR/exported"`, "LEAK=nothing"],
      ["LEAK", "aws_access_key_id"],
    );
    expect(JSON.stringify(done.exportedEnvironmentVariables ?? [])).not.toContain(
      plane.credentials.keys.admin.secretAccessKey,
    );
  });
});

describe("a machine without the sandbox tool", () => {
  it("refuses to run builds and says what to install, unless the opt-out is set explicitly", () => {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "no-bwrap-"));
    try {
      expect(() => buildSandbox(workDir, [], { PATH: "/nonexistent" })).toThrow(
        /sandbox \(bubblewrap\).*no bwrap on PATH: install it \(apt-get install bubblewrap\)/,
      );
      const opted = buildSandbox(workDir, [], { PATH: "/nonexistent", [UNSANDBOXED_ENV]: "1" });
      expect(opted.description).toMatch(/unsandboxed/);
      expect(opted.command("bash", ["-c", "true"], workDir)).toEqual({ file: "bash", args: ["-c", "true"] });
    } finally {
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  });
});
