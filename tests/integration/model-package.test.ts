import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { type AccessKey, type ControlPlane, startControlPlane } from "@decision-console/local-aws";
import { testStackFixture } from "@decision-console/local-aws/testing";
import { extract } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MODEL_PACKAGE_PROJECT } from "../../contract/stack/console-contract.ts";
import { packageModel } from "../../infra/packager/package-model.ts";
import { readBuildspec, runBuildspec } from "../../infra/test-support/codebuild-emulator.ts";
import { generatedModelBytes, sha256Of, testModelBytes } from "../../infra/test-support/fixture-model.ts";
import { type HubFileServer, startHubFileServer } from "../../infra/test-support/hub-file-server.ts";
import { buildOf } from "../../server/builds/build-view.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const BUCKET = "decision-console-local";
const REPO = "example-org/tiny-decider-GGUF";
const REVISION = "4168f45a16a1290d65a4ec0fa312ae917a4c15d6";
const FILE = "tiny-decider-Q4_K_M.gguf";
const model = testModelBytes();
const corruptedPin = { file: "corrupted.gguf", bytes: generatedModelBytes(50_000, 7) };

let scratch: string;
let controlPlane: ControlPlane;
let hub: HubFileServer;
let corruptHub: HubFileServer;
let s3: S3Client;
/** Keys of a model-packaging build, as the control plane issues each build: held to the project role's policy. */
let buildKey: AccessKey;

async function objectBytes(key: string): Promise<Buffer> {
  const object = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return Buffer.from(await object.Body!.transformToByteArray());
}

async function keysUnder(prefix: string): Promise<string[]> {
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  return (listed.Contents ?? []).map((object) => object.Key!);
}

function buildEnv(extra: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    CODEBUILD_SRC_DIR: scratch,
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: buildKey.accessKeyId,
    AWS_SECRET_ACCESS_KEY: buildKey.secretAccessKey,
    AWS_ENDPOINT_URL_S3: controlPlane.url,
    ARTIFACT_BUCKET: BUCKET,
    ...extra,
  };
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "model-package-buildspec-"));
  controlPlane = await startControlPlane({
    fixture: testStackFixture(),
    dataDir: join(scratch, "control-plane"),
    port: 0,
  });
  buildKey = controlPlane.credentials.issueBuildKey(MODEL_PACKAGE_PROJECT, `${MODEL_PACKAGE_PROJECT}:buildspec-test`);
  hub = await startHubFileServer({ files: new Map([[`${REPO}/resolve/${REVISION}/${FILE}`, model]]) });
  corruptHub = await startHubFileServer({
    files: new Map([[`${REPO}/resolve/${REVISION}/${corruptedPin.file}`, corruptedPin.bytes]]),
    corrupt: true,
  });
  s3 = new S3Client({
    region: "us-east-1",
    endpoint: controlPlane.url,
    forcePathStyle: true,
    credentials: controlPlane.credentials.keys.admin,
  });
}, 60_000);

afterAll(async () => {
  s3?.destroy();
  await hub?.close();
  await corruptHub?.close();
  await controlPlane?.close();
  await rm(scratch, { recursive: true, force: true });
  // The buildspec writes its exports beside the sources, as CodeBuild does in CODEBUILD_SRC_DIR.
  await rm(join(repoRoot, "packager.env"), { force: true });
});

describe("model-package buildspec against the local control plane's S3", () => {
  it("packages a pinned file, uploads model.tar.gz and exports what the console's build view reads", async () => {
    const buildspec = await readBuildspec(join(repoRoot, "infra", "buildspecs", "model-package.yml"));
    expect(buildspec.env?.["exported-variables"]).toEqual(expect.arrayContaining(["MODEL_DATA_URL", "MODEL_SHA256"]));

    const result = await runBuildspec(buildspec, {
      cwd: repoRoot,
      phases: ["build"],
      env: buildEnv({
        HF_ENDPOINT: hub.endpoint,
        HF_REPO: REPO,
        HF_REVISION: REVISION,
        HF_FILE: FILE,
        GGUF_SHA256: sha256Of(model),
        ARTIFACT_PREFIX: "models/buildspec",
      }),
    });

    expect(result.exitCode, result.output).toBe(0);
    expect(result.exported).toEqual({
      MODEL_DATA_URL: `s3://${BUCKET}/models/buildspec/model.tar.gz`,
      MODEL_SHA256: sha256Of(model),
      MODEL_BYTES: String(model.length),
      MODEL_COMPRESSION: "gzip",
    });
    const unpacked = join(scratch, "unpacked");
    await rm(unpacked, { recursive: true, force: true });
    await mkdir(unpacked);
    await writeFile(join(unpacked, "model.tar.gz"), await objectBytes("models/buildspec/model.tar.gz"));
    await extract({ file: join(unpacked, "model.tar.gz"), cwd: unpacked });
    expect(sha256Of(await readFile(join(unpacked, FILE)))).toBe(sha256Of(model));

    const view = buildOf(
      {
        id: "decision-console-model-package:1",
        projectName: "decision-console-model-package",
        exportedEnvironmentVariables: Object.entries(result.exported).map(([name, value]) => ({ name, value })),
      },
      "model",
    );
    expect(view.outputs.modelDataUrl).toBe(`s3://${BUCKET}/models/buildspec/model.tar.gz`);
    expect(view.outputs.modelSha256).toBe(sha256Of(model));
  }, 120_000);

  it("fails the build on a corrupted download, exports nothing and leaves the bucket untouched", async () => {
    const buildspec = await readBuildspec(join(repoRoot, "infra", "buildspecs", "model-package.yml"));
    const expected = sha256Of(corruptedPin.bytes);

    const result = await runBuildspec(buildspec, {
      cwd: repoRoot,
      phases: ["build"],
      env: buildEnv({
        HF_ENDPOINT: corruptHub.endpoint,
        HF_REPO: REPO,
        HF_REVISION: REVISION,
        HF_FILE: corruptedPin.file,
        GGUF_SHA256: expected,
        ARTIFACT_PREFIX: "models/corrupted",
      }),
    });

    expect(result.exitCode).not.toBe(0);
    expect(result.output).toMatch(
      new RegExp(`checksum_mismatch: sha256 mismatch for ${corruptedPin.file}: expected ${expected}, got [0-9a-f]{64}`),
    );
    expect(result.exported.MODEL_DATA_URL).toBeUndefined();
    expect(await keysUnder("models/corrupted")).toEqual([]);
  }, 120_000);
});

describe("packageModel in-process against the local control plane's S3", () => {
  it("uploads uncompressed model data with multipart parts S3 reassembles byte for byte", async () => {
    const big = generatedModelBytes(11 * 1024 * 1024 + 17, 3);
    const bigHub = await startHubFileServer({ files: new Map([[`${REPO}/resolve/${REVISION}/big.gguf`, big]]) });
    const workDir = await mkdtemp(join(scratch, "work-"));
    try {
      const result = await packageModel({
        source: { kind: "huggingface", repo: REPO, revision: REVISION, file: "big.gguf", sha256: sha256Of(big) },
        compression: "none",
        s3,
        bucket: BUCKET,
        prefix: "models/multipart",
        workDir,
        hfEndpoint: bigHub.endpoint,
        s3PartSizeBytes: 5 * 1024 * 1024,
      });

      expect(result.modelDataUrl).toBe(`s3://${BUCKET}/models/multipart/`);
      expect((await keysUnder("models/multipart/")).sort()).toEqual([
        "models/multipart/big.gguf",
        "models/multipart/model-manifest.json",
      ]);
      expect(sha256Of(await objectBytes("models/multipart/big.gguf"))).toBe(sha256Of(big));
      const manifest = JSON.parse((await objectBytes("models/multipart/model-manifest.json")).toString("utf8"));
      expect(manifest.gguf).toMatchObject({ file: "big.gguf", sha256: sha256Of(big), bytes: big.length });
      expect(await readdir(join(workDir, "downloads"))).toEqual([]);
    } finally {
      await bigHub.close();
    }
  }, 120_000);
});
