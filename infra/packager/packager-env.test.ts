import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { exportLines, parsePackagerEnv } from "./packager-env.ts";

const HF_ENV = {
  HF_REPO: "bartowski/Qwen_Qwen3.5-4B-GGUF",
  HF_REVISION: "4168f45a16a1290d65a4ec0fa312ae917a4c15d6",
  HF_FILE: "Qwen_Qwen3.5-4B-Q4_K_M.gguf",
  GGUF_SHA256: "13C16F426047E2DE38CD075BDADE4A7BCBC8C774384876F677740CDA65F8A983",
  ARTIFACT_BUCKET: "decision-console-artifacts",
};

describe("parsePackagerEnv", () => {
  it("reads a pinned Hugging Face source, lower-casing the sha256 and defaulting to gzip", () => {
    const options = parsePackagerEnv(HF_ENV, "/tmp/work");
    expect(options).toMatchObject({
      source: {
        kind: "huggingface",
        repo: HF_ENV.HF_REPO,
        revision: HF_ENV.HF_REVISION,
        file: HF_ENV.HF_FILE,
        sha256: HF_ENV.GGUF_SHA256.toLowerCase(),
      },
      compression: "gzip",
      bucket: "decision-console-artifacts",
      workDir: "/tmp/work",
    });
    expect(options.tokenizer).toBeUndefined();
  });

  it("treats CodeBuild's empty overrides as unset", () => {
    const options = parsePackagerEnv({ ...HF_ENV, SOURCE_PATH: "", TOKENIZER_REPO: " ", COMPRESSION: "" }, "/w");
    expect(options.source.kind).toBe("huggingface");
    expect(options.compression).toBe("gzip");
  });

  it("reads a local source with tokenizer pins and uncompressed output", () => {
    const options = parsePackagerEnv(
      {
        SOURCE_PATH: "/models/local.gguf",
        TOKENIZER_REPO: "Qwen/Qwen3.5-4B",
        TOKENIZER_REVISION: "851bf6e806efd8d0a36b00ddf55e13ccb7b8cd0a",
        COMPRESSION: "none",
        ARTIFACT_BUCKET: "b-1",
        ARTIFACT_PREFIX: "models/local",
      },
      "/w",
    );
    expect(options).toMatchObject({
      source: { kind: "local", path: "/models/local.gguf" },
      tokenizer: { repo: "Qwen/Qwen3.5-4B", revision: "851bf6e806efd8d0a36b00ddf55e13ccb7b8cd0a" },
      compression: "none",
      prefix: "models/local",
    });
  });

  it.each([
    [{ ...HF_ENV, GGUF_SHA256: undefined }, "GGUF_SHA256 is required for a Hugging Face source"],
    [{ ...HF_ENV, SOURCE_PATH: "/m.gguf" }, "Set either SOURCE_PATH or HF_REPO/HF_REVISION/HF_FILE, not both"],
    [{ ARTIFACT_BUCKET: "b-1" }, "Set HF_REPO, HF_REVISION, HF_FILE and GGUF_SHA256"],
    [{ ...HF_ENV, ARTIFACT_BUCKET: undefined }, "ARTIFACT_BUCKET is required"],
    [{ ...HF_ENV, COMPRESSION: "zstd" }, "COMPRESSION must be gzip or none"],
    [{ ...HF_ENV, TOKENIZER_REPO: "Qwen/Qwen3.5-4B" }, "Set both TOKENIZER_REPO and TOKENIZER_REVISION"],
  ])("rejects an incomplete environment with a message naming the variable (%#)", (env, message) => {
    expect(() => parsePackagerEnv(env, "/w")).toThrow(message);
  });
});

describe("exportLines", () => {
  it("prints shell exports the buildspec sources, quoting values safely", () => {
    const lines = exportLines({
      modelDataUrl: "s3://bucket/models/it's/model.tar.gz",
      compression: "gzip",
      sha256: "a".repeat(64),
      bytes: 42,
      manifest: {
        gguf: { file: "m.gguf", sha256: "a".repeat(64), bytes: 42 },
        packager: { name: "decision-console-model-packager", version: "1" },
      },
    });
    expect(lines).toBe(
      [
        `export MODEL_DATA_URL='s3://bucket/models/it'"'"'s/model.tar.gz'`,
        `export MODEL_SHA256='${"a".repeat(64)}'`,
        "export MODEL_BYTES='42'",
        "export MODEL_COMPRESSION='gzip'",
        "",
      ].join("\n"),
    );
  });
});

describe("packager CLI", () => {
  it("exits 1 with a clear message and prints no exports when the environment is incomplete", async () => {
    const run = promisify(execFile)("npx", ["tsx", "infra/packager/cli.ts"], {
      cwd: new URL("../../", import.meta.url).pathname,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        ARTIFACT_BUCKET: "b-1",
        AWS_REGION: "us-east-1",
        NODE_ENV: "test",
      },
    });
    const failure = (await run.catch((error: unknown) => error)) as { code: number; stdout: string; stderr: string };
    expect(failure.code).toBe(1);
    expect(failure.stdout).toBe("");
    expect(failure.stderr).toContain(
      "packager failed: invalid_input: Set HF_REPO, HF_REVISION, HF_FILE and GGUF_SHA256",
    );
  });
});
