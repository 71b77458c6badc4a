import { describe, expect, it } from "vitest";
import { cgroupCpuQuota, readConfig } from "../src/engine/config.ts";
import { assertCudaActive } from "../src/engine/load.ts";

const files = (entries: Record<string, string>) => (path: string) => entries[path] ?? null;

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
      parallel: 1,
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

  it("refuses unknown GPU kinds and non-positive temperatures", () => {
    expect(() => readConfig({ ADAPTER_GPU: "rocm" })).toThrow('ADAPTER_GPU must be "cuda" or "cpu"');
    expect(() => readConfig({ SEMIF_TEMPERATURE: "0" })).toThrow("SEMIF_TEMPERATURE must be a positive number");
  });
  it("reads the HTTP limits once: body deadline, body slots in total and per client address", () => {
    expect(readConfig({})).toMatchObject({ bodyTimeoutMs: 5000, maxBodyReaders: 8, maxBodyReadersPerPeer: 4 });
    expect(readConfig({ SEMIF_MAX_IN_FLIGHT: "2", ADAPTER_PARALLEL: "4" })).toMatchObject({
      maxBodyReaders: 16,
      maxBodyReadersPerPeer: 8,
    });
    expect(readConfig({ ADAPTER_BODY_TIMEOUT_MS: "1500", ADAPTER_MAX_BODIES_PER_PEER: "100" })).toMatchObject({
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
