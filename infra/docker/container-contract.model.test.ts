import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { singleDecisionResponseSchema } from "@decision-console/adapter/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { digestFile } from "../packager/file-digest.ts";
import { MANIFEST_FILE_NAME, serializeManifest } from "../packager/manifest.ts";
import { PACKAGER_VERSION } from "../packager/version.ts";
import { buildImageRoot, freePort, type RunningContainer, startContainer } from "../test-support/container-emulator.ts";
import { containerStart, parseDockerfile } from "../test-support/dockerfile.ts";
import { FIXTURE_MODEL_PATH, fixtureModelPresent } from "../test-support/fixture-model.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const dockerfile = (variant: "cpu" | "cuda") => join(repoRoot, "infra", "docker", `Dockerfile.${variant}`);

let root: string;
let container: RunningContainer | undefined;

/** `/opt/ml/model` as SageMaker unpacks a packaged artifact: the GGUF and its manifest side by side. */
async function layOutModelDir(manifestSha256?: string): Promise<void> {
  const modelDir = join(root, "opt", "ml", "model");
  await rm(modelDir, { recursive: true, force: true });
  await mkdir(modelDir, { recursive: true });
  const gguf = join(modelDir, basename(FIXTURE_MODEL_PATH));
  await copyFile(FIXTURE_MODEL_PATH, gguf);
  const digest = await digestFile(gguf);
  const manifest = {
    gguf: { file: basename(gguf), sha256: manifestSha256 ?? digest.sha256, bytes: digest.bytes },
    packager: { name: "decision-console-model-packager" as const, version: PACKAGER_VERSION },
  };
  await writeFile(join(modelDir, MANIFEST_FILE_NAME), serializeManifest(manifest));
}

async function ping(port: number): Promise<number | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/ping`, { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return undefined;
  }
}

/** Polls /ping until 200 or the process exits; returns whether it became healthy. */
async function waitUntilHealthy(port: number, running: RunningContainer, timeoutMs = 90_000): Promise<boolean> {
  let exited = false;
  void running.exited.then(() => {
    exited = true;
  });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !exited) {
    if ((await ping(port)) === 200) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

describe.skipIf(!fixtureModelPresent)(
  "the adapter image's entrypoint against a SageMaker model directory (needs ../shared/fixtures/models/stories260K.gguf)",
  () => {
    beforeAll(async () => {
      root = await mkdtemp(join(tmpdir(), "container-contract-"));
      await buildImageRoot(repoRoot, root);
    }, 120_000);

    afterEach(async () => {
      await container?.stop();
      container = undefined;
    });

    afterAll(async () => {
      await rm(root, { recursive: true, force: true });
    });

    it("serves /ping and a decision on /invocations with the CPU image's command and environment", async () => {
      await layOutModelDir();
      const port = await freePort();
      container = startContainer(containerStart(parseDockerfile(dockerfile("cpu"))), root, {
        SAGEMAKER_BIND_TO_PORT: String(port),
        ADAPTER_THREADS: "1",
      });

      expect(await waitUntilHealthy(port, container), container.output()).toBe(true);
      const pingBody = await (await fetch(`http://127.0.0.1:${port}/ping`)).json();
      expect(pingBody).toEqual({ status: "ok" });

      const response = await fetch(`http://127.0.0.1:${port}/invocations`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          decision: {
            id: "route-1",
            state: "Once upon a time, there was a little dog.",
            question: "Who is the story about?",
            options: [
              { id: "dog", description: "a dog" },
              { id: "cat", description: "a cat" },
            ],
          },
        }),
      });
      expect(response.status).toBe(200);
      const { result } = singleDecisionResponseSchema.parse(await response.json());
      expect(result.option_ids).toEqual(["dog", "cat"]);
      expect(result.probabilities.reduce((sum, p) => sum + p, 0)).toBeCloseTo(1, 6);
      const digest = await digestFile(FIXTURE_MODEL_PATH);
      expect(result.model.sha256).toBe(digest.sha256);
      expect(result.model.manifest?.gguf.sha256).toBe(digest.sha256);
    }, 120_000);

    it("refuses to start when model-manifest.json pins a different sha256, naming both", async () => {
      const pinned = "0".repeat(64);
      await layOutModelDir(pinned);
      const port = await freePort();
      container = startContainer(containerStart(parseDockerfile(dockerfile("cpu"))), root, {
        SAGEMAKER_BIND_TO_PORT: String(port),
        ADAPTER_THREADS: "1",
      });

      expect(await waitUntilHealthy(port, container)).toBe(false);
      expect(await container.exited).not.toBe(0);
      const actual = (await digestFile(FIXTURE_MODEL_PATH)).sha256;
      expect(container.output()).toContain("sha256 mismatch");
      expect(container.output()).toContain(pinned);
      expect(container.output()).toContain(actual);
    }, 120_000);

    it("refuses to start the CUDA image's command on a machine without CUDA instead of falling back to CPU", async () => {
      await layOutModelDir();
      const port = await freePort();
      container = startContainer(containerStart(parseDockerfile(dockerfile("cuda"))), root, {
        SAGEMAKER_BIND_TO_PORT: String(port),
        ADAPTER_THREADS: "1",
      });

      expect(await waitUntilHealthy(port, container)).toBe(false);
      expect(await container.exited).not.toBe(0);
      expect(container.output()).toMatch(/ADAPTER_GPU=cuda/);
    }, 120_000);
  },
);
