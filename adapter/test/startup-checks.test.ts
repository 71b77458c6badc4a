import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_PARALLEL } from "../src/contract/parallel-default.ts";
import { cgroupCpuQuota, readConfig } from "../src/engine/config.ts";
import { assertCudaActive } from "../src/engine/load.ts";
import { locateModel } from "../src/engine/model-file.ts";

const files = (entries: Record<string, string>) => (file: string) => entries[file] ?? null;

describe("thread count", () => {
  it("reads the cgroup v2 CPU quota, rounding up", () => {
    expect(cgroupCpuQuota(files({ "/sys/fs/cgroup/cpu.max": "250000 100000\n" }))).toBe(3);
    expect(cgroupCpuQuota(files({ "/sys/fs/cgroup/cpu.max": "max 100000\n" }))).toBeNull();
  });
  it("falls back to the cgroup v1 CFS quota, and to nothing when unlimited", () => {
    const v1 = { "/sys/fs/cgroup/cpu/cpu.cfs_quota_us": "400000", "/sys/fs/cgroup/cpu/cpu.cfs_period_us": "100000" };
    expect(cgroupCpuQuota(files(v1))).toBe(4);
    expect(cgroupCpuQuota(files({ ...v1, "/sys/fs/cgroup/cpu/cpu.cfs_quota_us": "-1" }))).toBeNull();
    expect(cgroupCpuQuota(files({}))).toBeNull();
  });
  it("takes ADAPTER_THREADS over the default and rejects nonsense", () => {
    expect(readConfig({ ADAPTER_THREADS: "6" }).threads).toBe(6);
    expect(readConfig({}).threads).toBeGreaterThanOrEqual(1);
    expect(() => readConfig({ ADAPTER_THREADS: "0" })).toThrow("ADAPTER_THREADS must be a positive integer");
  });
});

describe("configuration", () => {
  it("uses SemIf's names and defaults", () => {
    expect(readConfig({})).toMatchObject({
      port: 8080,
      modelDir: "/opt/ml/model",
      maxTokens: 4096,
      maxRequestTokens: 8192,
      maxSharedDecisions: 8,
      maxBodyBytes: 262144,
      maxInFlight: 1,
      temperature: 1,
      gpu: false,
    });
  });
  it("listens on loopback unless ADAPTER_HOST names another address", () => {
    expect(readConfig({}).host).toBe("127.0.0.1");
    expect(readConfig({ ADAPTER_HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
    expect(readConfig({ ADAPTER_HOST: "::1" }).host).toBe("::1");
    expect(() => readConfig({ ADAPTER_HOST: "0.0.0.0 --inspect" })).toThrow(
      'ADAPTER_HOST must be an IP address or host name, got "0.0.0.0 --inspect"',
    );
  });

  it("defaults ADAPTER_PARALLEL per backend and the reading cache to 1024 entries", () => {
    expect(readConfig({}).parallel).toBe(DEFAULT_PARALLEL.cpu);
    expect(readConfig({ ADAPTER_GPU: "cuda" }).parallel).toBe(DEFAULT_PARALLEL.cuda);
    expect(readConfig({ ADAPTER_PARALLEL: "2" }).parallel).toBe(2);
    expect(readConfig({}).readingCacheEntries).toBe(1024);
    expect(readConfig({ ADAPTER_READING_CACHE: "0" }).readingCacheEntries).toBe(0);
    expect(() => readConfig({ ADAPTER_READING_CACHE: "-1" })).toThrow("ADAPTER_READING_CACHE must be an integer");
  });
  it("schedules a request's branches serially on a CPU and batched over lanes on CUDA, unless told", () => {
    expect(readConfig({}).branchSchedule).toBe("serial");
    expect(readConfig({ ADAPTER_GPU: "cuda" }).branchSchedule).toBe("batched");
    expect(readConfig({ ADAPTER_BRANCH_SCHEDULE: "batched" }).branchSchedule).toBe("batched");
    expect(readConfig({ ADAPTER_GPU: "cuda", ADAPTER_BRANCH_SCHEDULE: "serial" }).branchSchedule).toBe("serial");
    expect(() => readConfig({ ADAPTER_BRANCH_SCHEDULE: "lanes" })).toThrow(
      'ADAPTER_BRANCH_SCHEDULE must be "serial" or "batched", got "lanes"',
    );
  });
  it("resolves a relative ADAPTER_MODEL_PATH against INIT_CWD (where npm was run) and says so when missing", () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), "model-path-"));
    try {
      writeFileSync(path.join(directory, "m.gguf"), "");
      const config = readConfig({ ADAPTER_MODEL_PATH: "m.gguf", INIT_CWD: directory });
      expect(locateModel(config.modelPath, config.modelDir, config.modelPathBase)).toBe(path.join(directory, "m.gguf"));
      expect(() => locateModel("bench/out/missing.gguf", "/opt/ml/model", directory)).toThrow(
        `ADAPTER_MODEL_PATH does not exist: ${path.join(directory, "bench/out/missing.gguf")} (the relative path ` +
          `bench/out/missing.gguf resolved against ${directory}, the directory the command was run from`,
      );
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
  it("reads the deployed model pin ADAPTER_MODEL_SHA256 lower-cased, and refuses anything but 64 hex", () => {
    expect(readConfig({}).modelSha256).toBeNull();
    expect(readConfig({ ADAPTER_MODEL_SHA256: "AB".repeat(32) }).modelSha256).toBe("ab".repeat(32));
    expect(() => readConfig({ ADAPTER_MODEL_SHA256: "abc" })).toThrow(
      'ADAPTER_MODEL_SHA256 must be 64 hex characters, got "abc"',
    );
  });
  it("refuses unknown GPU kinds and non-positive temperatures", () => {
    expect(() => readConfig({ ADAPTER_GPU: "rocm" })).toThrow('ADAPTER_GPU must be "cuda" or "cpu"');
    expect(() => readConfig({ SEMIF_TEMPERATURE: "0" })).toThrow("SEMIF_TEMPERATURE must be a positive number");
  });
  it("reads the HTTP limits once: body deadline, body slots in total and per client address", () => {
    expect(readConfig({ ADAPTER_PARALLEL: "1" })).toMatchObject({
      bodyTimeoutMs: 5000,
      maxBodyReaders: 8,
      maxBodyReadersPerPeer: 4,
    });
    expect(readConfig({})).toMatchObject({
      maxBodyReaders: 4 * DEFAULT_PARALLEL.cpu,
      maxBodyReadersPerPeer: 2 * DEFAULT_PARALLEL.cpu,
    });
    expect(readConfig({ SEMIF_MAX_IN_FLIGHT: "2", ADAPTER_PARALLEL: "4" })).toMatchObject({
      maxBodyReaders: 16,
      maxBodyReadersPerPeer: 8,
    });
    expect(
      readConfig({ ADAPTER_PARALLEL: "1", ADAPTER_BODY_TIMEOUT_MS: "1500", ADAPTER_MAX_BODIES_PER_PEER: "100" }),
    ).toMatchObject({
      bodyTimeoutMs: 1500,
      maxBodyReadersPerPeer: 8,
    });
    expect(() => readConfig({ ADAPTER_BODY_TIMEOUT_MS: "0" })).toThrow("ADAPTER_BODY_TIMEOUT_MS must be a positive");
  });
  it("reads the systemone settings with the rest, so no route reads the environment per request", () => {
    expect(readConfig({})).toMatchObject({ permutations: 1, maxQuestions: 64 });
    expect(readConfig({ ADAPTER_PERMUTATIONS: "4", SYSTEMONE_MAX_QUESTIONS: "8" })).toMatchObject({
      permutations: 4,
      maxQuestions: 8,
    });
    expect(() => readConfig({ ADAPTER_PERMUTATIONS: "256" })).toThrow("ADAPTER_PERMUTATIONS must be an integer");
  });
});

describe("CUDA start-up check", () => {
  const healthy = { gpu: "cuda", gpuLayers: 25, totalLayers: 25, vramUsed: 1_000_000 };
  it("accepts CUDA with every layer offloaded and VRAM in use", () => {
    expect(() => assertCudaActive(healthy)).not.toThrow();
  });
  it.each([
    [{ ...healthy, gpu: false as const }, "the loaded backend is CPU, not CUDA"],
    [{ ...healthy, gpu: "vulkan" }, "the loaded backend is vulkan, not CUDA"],
    [{ ...healthy, gpuLayers: 20 }, "20 of 25 layers are offloaded to the GPU"],
    [{ ...healthy, vramUsed: 0 }, "no VRAM is in use"],
  ])("refuses %j", (state, reason) => {
    expect(() => assertCudaActive(state)).toThrow(reason);
  });
});
