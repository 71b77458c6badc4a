import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "../src/engine/config.ts";
import { sha256File } from "../src/engine/model-file.ts";
import { startAdapter } from "../src/http/app.ts";
import { decision, type GeneratedModel, generateModel, postJson, rawRequest } from "./support/adapter-harness.ts";

const adapterRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
let model: GeneratedModel;
let modelDir: string;

beforeAll(() => {
  model = generateModel("tiny");
  modelDir = mkdtempSync(path.join(os.tmpdir(), "adapter-sm-model-"));
  copyFileSync(model.file, path.join(modelDir, "model.gguf"));
});

afterAll(() => {
  model?.cleanup();
  rmSync(modelDir, { recursive: true, force: true });
});

const quiet = { host: "127.0.0.1", port: 0, log: () => undefined };

/** Runs the real CLI (`tsx src/cli.ts serve`) and collects its JSON lines until it exits or reports ready. */
function runCli(env: Record<string, string>): Promise<{ code: number | null; lines: Array<Record<string, unknown>> }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli.ts", "serve"], {
      cwd: adapterRoot,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        SAGEMAKER_BIND_TO_PORT: "0",
        ADAPTER_THREADS: "1",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const lines: Array<Record<string, unknown>> = [];
    let buffered = "";
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      const complete = buffered.split("\n");
      buffered = complete.pop() ?? "";
      for (const text of complete) {
        const line = JSON.parse(text) as Record<string, unknown>;
        lines.push(line);
        if (line.event === "ready") child.kill("SIGTERM");
      }
    });
    child.on("exit", (code) => resolve({ code, lines }));
  });
}

describe("model discovery and manifest", () => {
  it("serves the first *.gguf under SM_MODEL_DIR and reports the manifest pins", async () => {
    const sha256 = await sha256File(model.file);
    writeFileSync(
      path.join(modelDir, "model-manifest.json"),
      JSON.stringify({
        gguf: { repo: "example/tiny", revision: "a".repeat(40), file: "model.gguf", sha256 },
        tokenizer: {},
      }),
    );
    const adapter = await startAdapter(
      readConfig({ SM_MODEL_DIR: modelDir, ADAPTER_THREADS: "1", SEMIF_MAX_TOKENS: "512" }),
      quiet,
    );
    try {
      await adapter.ready;
      const response = await postJson(adapter.url, { decision: decision() });
      const metadata = (response.body as { result: { model: Record<string, unknown> } }).result.model;
      expect(metadata).toMatchObject({
        file: "model.gguf",
        sha256,
        manifest: { gguf: { repo: "example/tiny", sha256 } },
      });
    } finally {
      await adapter.close();
    }
  });

  it("refuses to start when the GGUF's sha256 differs from model-manifest.json, and /ping stays 503", async () => {
    writeFileSync(path.join(modelDir, "model-manifest.json"), JSON.stringify({ gguf: { sha256: "0".repeat(64) } }));
    const adapter = await startAdapter(readConfig({ SM_MODEL_DIR: modelDir, ADAPTER_THREADS: "1" }), quiet);
    try {
      await expect(adapter.ready).rejects.toThrow(
        /model sha256 mismatch: model.gguf is [0-9a-f]{64}, model-manifest.json pins 0{64}/,
      );
      expect((await rawRequest(adapter.url, { method: "GET", path: "/ping" })).status).toBe(503);
    } finally {
      await adapter.close();
      rmSync(path.join(modelDir, "model-manifest.json"));
    }
  });

  it("refuses to start when the GGUF's sha256 differs from the deployed ADAPTER_MODEL_SHA256, naming both", async () => {
    const adapter = await startAdapter(
      readConfig({ SM_MODEL_DIR: modelDir, ADAPTER_THREADS: "1", ADAPTER_MODEL_SHA256: "A".repeat(64) }),
      quiet,
    );
    try {
      await expect(adapter.ready).rejects.toThrow(
        /model sha256 mismatch: model.gguf is [0-9a-f]{64}, the deployment pins a{64} \(ADAPTER_MODEL_SHA256\)/,
      );
      expect((await rawRequest(adapter.url, { method: "GET", path: "/ping" })).status).toBe(503);
    } finally {
      await adapter.close();
    }
  });

  it("starts when the GGUF matches ADAPTER_MODEL_SHA256 (any case), and the CLI logs a mismatch as start_failed", async () => {
    const sha256 = await sha256File(model.file);
    const adapter = await startAdapter(
      readConfig({
        SM_MODEL_DIR: modelDir,
        ADAPTER_THREADS: "1",
        SEMIF_MAX_TOKENS: "512",
        ADAPTER_MODEL_SHA256: sha256.toUpperCase(),
      }),
      quiet,
    );
    try {
      expect((await adapter.ready).metadata.sha256).toBe(sha256);
    } finally {
      await adapter.close();
    }
    const { code, lines } = await runCli({ ADAPTER_MODEL_PATH: model.file, ADAPTER_MODEL_SHA256: "0".repeat(64) });
    expect(code).toBe(1);
    expect(lines.at(-1)).toMatchObject({
      event: "start_failed",
      error: expect.stringContaining("the deployment pins 0000000000000000"),
    });
  });

  it("refuses to start without a model, naming what it looked for", async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), "adapter-empty-"));
    const adapter = await startAdapter(readConfig({ SM_MODEL_DIR: empty, ADAPTER_THREADS: "1" }), quiet);
    try {
      await expect(adapter.ready).rejects.toThrow(`no *.gguf file in ${empty}`);
    } finally {
      await adapter.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe("serve command", () => {
  it("starts from the CLI, logs JSON lines and reaches ready", async () => {
    const { lines } = await runCli({ ADAPTER_MODEL_PATH: model.file, SEMIF_MAX_TOKENS: "512" });
    expect(lines[0]).toMatchObject({ event: "listening", threads: 1, gpu: "cpu" });
    expect(lines.find((line) => line.event === "ready")).toMatchObject({
      model: { file: "tiny.gguf", backend: "cpu" },
    });
  }, 60_000);

  it.skipIf(existsSync("/dev/nvidiactl"))(
    "with ADAPTER_GPU=cuda on a machine without a usable GPU, exits 1 with a clear reason instead of running on CPU",
    async () => {
      const { code, lines } = await runCli({ ADAPTER_MODEL_PATH: model.file, ADAPTER_GPU: "cuda" });
      expect(code).toBe(1);
      const failure = lines.find((line) => line.event === "start_failed");
      expect(String(failure?.error)).toMatch(/^ADAPTER_GPU=cuda but .*refusing to start on CPU/i);
    },
    120_000,
  );
});
