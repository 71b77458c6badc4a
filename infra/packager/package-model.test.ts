import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { mockClient } from "aws-sdk-client-mock";
import { extract } from "tar";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  FIXTURE_MODEL_PATH,
  fixtureModelPresent,
  generatedModelBytes,
  sha256Of,
  testModelBytes,
} from "../test-support/fixture-model.ts";
import { type HubFileServer, startHubFileServer } from "../test-support/hub-file-server.ts";
import { modelManifestSchema } from "./manifest.ts";
import { type PackagerProgress, packageModel } from "./package-model.ts";
import { PackagerError } from "./packager-error.ts";
import { PACKAGER_VERSION } from "./version.ts";

const REPO = "example-org/tiny-decider-GGUF";
const REVISION = "4168f45a16a1290d65a4ec0fa312ae917a4c15d6";
const FILE = "tiny-decider-Q4_K_M.gguf";
const TOKENIZER_REPO = "example-org/tiny-decider";
const TOKENIZER_REVISION = "851bf6e806efd8d0a36b00ddf55e13ccb7b8cd0a";
const BUCKET = "decision-console-artifacts-test";

const s3Mock = mockClient(S3Client);
let hub: HubFileServer | undefined;
let workDir: string;
const s3 = new S3Client({ region: "us-east-1", credentials: { accessKeyId: "test", secretAccessKey: "test" } });

interface StoredObject {
  key: string;
  body: Buffer;
  contentType: string | undefined;
}

/** Records what PutObject stored, in upload order. */
function recordPutObjects(): StoredObject[] {
  const stored: StoredObject[] = [];
  s3Mock.on(PutObjectCommand).callsFake(async (input) => {
    stored.push({ key: input.Key, body: Buffer.from(input.Body as Uint8Array), contentType: input.ContentType });
    return { ETag: '"etag"' };
  });
  return stored;
}

function hubFiles(entries: Record<string, Buffer>): Map<string, Buffer> {
  return new Map(Object.entries(entries));
}

function modelPath(file = FILE): string {
  return `${REPO}/resolve/${REVISION}/${file}`;
}

async function unpack(archive: Buffer): Promise<string> {
  const dir = await mkdtemp(join(workDir, "unpacked-"));
  const file = join(dir, "model.tar.gz");
  await writeFile(file, archive);
  await extract({ file, cwd: dir });
  await rm(file);
  return dir;
}

beforeEach(async () => {
  s3Mock.reset();
  workDir = await mkdtemp(join(tmpdir(), "packager-test-"));
});

afterEach(async () => {
  await hub?.close();
  hub = undefined;
  await rm(workDir, { recursive: true, force: true });
});

describe("packageModel from a pinned Hugging Face file", () => {
  it("publishes model.tar.gz with the GGUF at the top level and a manifest of its pins", async () => {
    const model = testModelBytes();
    hub = await startHubFileServer({ files: hubFiles({ [modelPath()]: model }) });
    const stored = recordPutObjects();

    const result = await packageModel({
      source: { kind: "huggingface", repo: REPO, revision: REVISION, file: FILE, sha256: sha256Of(model) },
      compression: "gzip",
      s3,
      bucket: BUCKET,
      prefix: "models/tiny",
      workDir,
      hfEndpoint: hub.endpoint,
    });

    expect(result.modelDataUrl).toBe(`s3://${BUCKET}/models/tiny/model.tar.gz`);
    expect(result).toMatchObject({ compression: "gzip", sha256: sha256Of(model), bytes: model.length });
    expect(stored.map((o) => o.key)).toEqual(["models/tiny/model.tar.gz"]);

    const unpacked = await unpack(stored[0]!.body);
    expect((await readdir(unpacked)).sort()).toEqual([FILE, "model-manifest.json"].sort());
    expect(sha256Of(await readFile(join(unpacked, FILE)))).toBe(sha256Of(model));
    const manifest = modelManifestSchema.parse(
      JSON.parse(await readFile(join(unpacked, "model-manifest.json"), "utf8")),
    );
    expect(manifest).toEqual(result.manifest);
    expect(manifest.gguf).toEqual({
      repo: REPO,
      revision: REVISION,
      file: FILE,
      sha256: sha256Of(model),
      bytes: model.length,
    });
    expect(manifest.packager.version).toBe(PACKAGER_VERSION);
    expect(manifest.tokenizer).toBeUndefined();
  });

  it("publishes uncompressed model data as objects under the prefix, manifest last", async () => {
    const model = testModelBytes();
    hub = await startHubFileServer({ files: hubFiles({ [modelPath()]: model }) });
    const stored = recordPutObjects();

    const result = await packageModel({
      source: { kind: "huggingface", repo: REPO, revision: REVISION, file: FILE, sha256: sha256Of(model) },
      compression: "none",
      s3,
      bucket: BUCKET,
      prefix: "/models/tiny/",
      workDir,
      hfEndpoint: hub.endpoint,
    });

    expect(result.modelDataUrl).toBe(`s3://${BUCKET}/models/tiny/`);
    expect(result.compression).toBe("none");
    expect(stored.map((o) => o.key)).toEqual([`models/tiny/${FILE}`, "models/tiny/model-manifest.json"]);
    expect(sha256Of(stored[0]!.body)).toBe(sha256Of(model));
    expect(JSON.parse(stored[1]!.body.toString("utf8")).gguf.sha256).toBe(sha256Of(model));
  });

  it("defaults the prefix to models/<sha256>/<compression>", async () => {
    const model = generatedModelBytes(4096);
    hub = await startHubFileServer({ files: hubFiles({ [modelPath()]: model }) });
    recordPutObjects();

    const result = await packageModel({
      source: { kind: "huggingface", repo: REPO, revision: REVISION, file: FILE, sha256: sha256Of(model) },
      compression: "none",
      s3,
      bucket: BUCKET,
      workDir,
      hfEndpoint: hub.endpoint,
    });

    expect(result.modelDataUrl).toBe(`s3://${BUCKET}/models/${sha256Of(model)}/uncompressed/`);
  });

  it("adds the pinned tokenizer files under tokenizer/ and records their pins", async () => {
    const model = generatedModelBytes(8192);
    const tokenizerJson = Buffer.from('{"model":{"type":"BPE"}}');
    const tokenizerConfig = Buffer.from('{"eos_token":"<|im_end|>"}');
    hub = await startHubFileServer({
      files: hubFiles({
        [modelPath()]: model,
        [`${TOKENIZER_REPO}/resolve/${TOKENIZER_REVISION}/tokenizer.json`]: tokenizerJson,
        [`${TOKENIZER_REPO}/resolve/${TOKENIZER_REVISION}/tokenizer_config.json`]: tokenizerConfig,
      }),
    });
    const stored = recordPutObjects();

    const result = await packageModel({
      source: { kind: "huggingface", repo: REPO, revision: REVISION, file: FILE, sha256: sha256Of(model) },
      tokenizer: { repo: TOKENIZER_REPO, revision: TOKENIZER_REVISION },
      compression: "gzip",
      s3,
      bucket: BUCKET,
      prefix: "models/tok",
      workDir,
      hfEndpoint: hub.endpoint,
    });

    const unpacked = await unpack(stored[0]!.body);
    expect(await readFile(join(unpacked, "tokenizer", "tokenizer.json"))).toEqual(tokenizerJson);
    expect(await readFile(join(unpacked, "tokenizer", "tokenizer_config.json"))).toEqual(tokenizerConfig);
    expect(result.manifest.tokenizer).toEqual({
      repo: TOKENIZER_REPO,
      revision: TOKENIZER_REVISION,
      files: [
        { file: "tokenizer.json", sha256: sha256Of(tokenizerJson), bytes: tokenizerJson.length },
        { file: "tokenizer_config.json", sha256: sha256Of(tokenizerConfig), bytes: tokenizerConfig.length },
      ],
    });
  });

  it("sends HF_TOKEN as a bearer token when one is given", async () => {
    const model = generatedModelBytes(2048);
    hub = await startHubFileServer({ files: hubFiles({ [modelPath()]: model }) });
    recordPutObjects();

    await packageModel({
      source: { kind: "huggingface", repo: REPO, revision: REVISION, file: FILE, sha256: sha256Of(model) },
      compression: "none",
      s3,
      bucket: BUCKET,
      workDir,
      hfEndpoint: hub.endpoint,
      hfToken: "hf_secret",
    });

    expect(hub.requests[0]).toMatchObject({ path: modelPath(), authorization: "Bearer hf_secret" });
  });
});

describe("packageModel with the shared fixture model", () => {
  it.skipIf(!fixtureModelPresent)(
    "packages stories260K.gguf from a local path with the sha256 its README documents (skipped without ../shared)",
    async () => {
      recordPutObjects();
      const result = await packageModel({
        source: {
          kind: "local",
          path: FIXTURE_MODEL_PATH,
          sha256: "270cba1bd5109f42d03350f60406024560464db173c0e387d91f0426d3bd256d",
        },
        compression: "gzip",
        s3,
        bucket: BUCKET,
        workDir,
      });
      expect(result.bytes).toBe(1_185_376);
      expect(result.manifest.gguf.file).toBe("stories260K.gguf");
    },
  );
});

describe("packageModel refuses to publish what it cannot verify", () => {
  it("fails a corrupted download with both hashes and uploads nothing", async () => {
    const model = testModelBytes();
    hub = await startHubFileServer({ files: hubFiles({ [modelPath()]: model }), corrupt: true });
    recordPutObjects();
    const expected = sha256Of(model);

    const failure = await packageModel({
      source: { kind: "huggingface", repo: REPO, revision: REVISION, file: FILE, sha256: expected },
      compression: "gzip",
      s3,
      bucket: BUCKET,
      workDir,
      hfEndpoint: hub.endpoint,
    }).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(PackagerError);
    const error = failure as PackagerError;
    expect(error.code).toBe("checksum_mismatch");
    expect(error.message).toContain(`expected ${expected}`);
    const actual = error.message.match(/got ([0-9a-f]{64})/)?.[1];
    expect(actual).toBeDefined();
    expect(actual).not.toBe(expected);
    expect(s3Mock.calls()).toHaveLength(0);
    expect(await readdir(join(workDir, "downloads"))).toEqual([]);
  });

  it("fails with the HTTP status when the file does not exist, uploading nothing", async () => {
    hub = await startHubFileServer({ files: new Map() });
    recordPutObjects();

    await expect(
      packageModel({
        source: { kind: "huggingface", repo: REPO, revision: REVISION, file: FILE, sha256: "a".repeat(64) },
        compression: "gzip",
        s3,
        bucket: BUCKET,
        workDir,
        hfEndpoint: hub.endpoint,
      }),
    ).rejects.toThrow(/HTTP 404/);
    expect(s3Mock.calls()).toHaveLength(0);
  });

  it("rejects a floating revision such as main before downloading anything", async () => {
    await expect(
      packageModel({
        source: { kind: "huggingface", repo: REPO, revision: "main", file: FILE, sha256: "a".repeat(64) },
        compression: "gzip",
        s3,
        bucket: BUCKET,
        workDir,
      }),
    ).rejects.toThrow(/source\.revision: revision must be a 40-character commit hash/);
  });

  it("fails a local file whose sha256 differs from the pin, uploading nothing", async () => {
    const path = join(workDir, "local.gguf");
    const model = generatedModelBytes(4096);
    await writeFile(path, model);
    recordPutObjects();

    await expect(
      packageModel({
        source: { kind: "local", path, sha256: "b".repeat(64) },
        compression: "gzip",
        s3,
        bucket: BUCKET,
        workDir,
      }),
    ).rejects.toThrow(`expected ${"b".repeat(64)}, got ${sha256Of(model)}`);
    expect(s3Mock.calls()).toHaveLength(0);
  });
});

describe("packageModel transfers large files robustly", () => {
  it("resumes an interrupted download with a Range request and publishes the complete file", async () => {
    const model = testModelBytes();
    const dropAfter = 300_000;
    hub = await startHubFileServer({
      files: hubFiles({ [modelPath()]: model }),
      dropConnection: { afterBytes: dropAfter, count: 1 },
    });
    const stored = recordPutObjects();
    const progress: PackagerProgress[] = [];

    const result = await packageModel({
      source: { kind: "huggingface", repo: REPO, revision: REVISION, file: FILE, sha256: sha256Of(model) },
      compression: "none",
      s3,
      bucket: BUCKET,
      prefix: "models/resumed",
      workDir,
      hfEndpoint: hub.endpoint,
      retry: { retryDelayMs: 10 },
      onProgress: (event) => progress.push(event),
    });

    const cdnRequests = hub.requests.filter((r) => r.path.startsWith("cdn/"));
    // The resume starts where the partial file on disk ends: every byte received before the drop, or fewer when
    // the last chunks had not reached the file yet (a loaded machine), never from 0 and never past the drop.
    expect(cdnRequests).toHaveLength(2);
    expect(cdnRequests[0]!.range).toBeUndefined();
    const resumedFrom = Number(/^bytes=(\d+)-$/.exec(cdnRequests[1]!.range ?? "")?.[1]);
    expect(resumedFrom).toBeGreaterThan(0);
    expect(resumedFrom).toBeLessThanOrEqual(dropAfter);
    expect(result.sha256).toBe(sha256Of(model));
    expect(sha256Of(stored[0]!.body)).toBe(sha256Of(model));
    const downloads = progress.filter((e) => e.phase === "download");
    expect(downloads.at(-1)).toMatchObject({ bytesDone: model.length, bytesTotal: model.length });
  });

  it("continues a partial file left by an earlier run instead of starting over", async () => {
    const model = generatedModelBytes(200_000);
    hub = await startHubFileServer({ files: hubFiles({ [modelPath()]: model }) });
    recordPutObjects();
    const downloads = join(workDir, "downloads");
    await mkdir(downloads, { recursive: true });
    await writeFile(join(downloads, `${FILE}.partial`), model.subarray(0, 123_456));

    const result = await packageModel({
      source: { kind: "huggingface", repo: REPO, revision: REVISION, file: FILE, sha256: sha256Of(model) },
      compression: "none",
      s3,
      bucket: BUCKET,
      workDir,
      hfEndpoint: hub.endpoint,
    });

    expect(hub.requests.filter((r) => r.path.startsWith("cdn/")).map((r) => r.range)).toEqual(["bytes=123456-"]);
    expect(result.sha256).toBe(sha256Of(model));
  });

  it("uploads a file larger than one part with S3 multipart", async () => {
    const partSize = 5 * 1024 * 1024;
    const model = generatedModelBytes(2 * partSize + 1234);
    hub = await startHubFileServer({ files: hubFiles({ [modelPath()]: model }) });
    recordPutObjects();
    const parts: Buffer[] = [];
    s3Mock.on(CreateMultipartUploadCommand).resolves({ UploadId: "upload-1" });
    s3Mock.on(UploadPartCommand).callsFake(async (input) => {
      parts[input.PartNumber - 1] = Buffer.from(input.Body as Uint8Array);
      return { ETag: `"part-${input.PartNumber}"` };
    });
    s3Mock.on(CompleteMultipartUploadCommand).resolves({});

    await packageModel({
      source: { kind: "huggingface", repo: REPO, revision: REVISION, file: FILE, sha256: sha256Of(model) },
      compression: "none",
      s3,
      bucket: BUCKET,
      prefix: "models/big",
      workDir,
      hfEndpoint: hub.endpoint,
      s3PartSizeBytes: partSize,
    });

    expect(parts).toHaveLength(3);
    expect(sha256Of(Buffer.concat(parts))).toBe(sha256Of(model));
    const complete = s3Mock.commandCalls(CompleteMultipartUploadCommand)[0]!.args[0].input;
    expect(complete).toMatchObject({ Bucket: BUCKET, Key: `models/big/${FILE}`, UploadId: "upload-1" });
    expect(complete.MultipartUpload?.Parts?.map((p) => p.PartNumber)).toEqual([1, 2, 3]);
  });
});
