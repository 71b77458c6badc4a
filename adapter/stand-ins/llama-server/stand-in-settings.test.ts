import { describe, expect, it } from "vitest";
import { dlcLaunch } from "./dlc-entrypoint.ts";
import { standInSettings } from "./stand-in-settings.ts";

describe("the DLC entrypoint's reading of SM_LLAMA_CPP_*", () => {
  it("turns SM_LLAMA_CPP_FOO_BAR into --foo-bar, true into a bare flag, drops false and reads its own three", () => {
    const launch = dlcLaunch({
      SM_LLAMA_CPP_CTX_SIZE: "4096",
      SM_LLAMA_CPP_FLASH_ATTN: "true",
      SM_LLAMA_CPP_MLOCK: "false",
      SM_LLAMA_CPP_MODEL_DIR: "/opt/ml/model",
      SM_LLAMA_CPP_PORT: "8081",
      OTHER: "x",
    });
    expect(launch).toEqual({
      model: null,
      modelDir: "/opt/ml/model",
      port: 8081,
      flags: new Map<string, string | true>([
        ["--ctx-size", "4096"],
        ["--flash-attn", true],
      ]),
    });
    expect(dlcLaunch({}).port).toBe(8080);
    expect(() => dlcLaunch({ SM_LLAMA_CPP_PORT: "http" })).toThrow(/port number/);
  });
});

describe("the stand-in's settings", () => {
  const settings = (env: Record<string, string>, variant: "cpu" | "cuda" = "cpu") =>
    standInSettings(dlcLaunch(env), variant);

  it("splits --ctx-size over --parallel slots as llama-server does, and offloads all layers only on cuda", () => {
    expect(settings({ SM_LLAMA_CPP_CTX_SIZE: "4096", SM_LLAMA_CPP_PARALLEL: "4", SM_LLAMA_CPP_THREADS: "2" })).toEqual({
      ADAPTER_PARALLEL: "4",
      ADAPTER_THREADS: "2",
      SEMIF_MAX_TOKENS: "1024",
    });
    expect(settings({ SM_LLAMA_CPP_N_GPU_LAYERS: "999" }, "cuda")).toEqual({
      ADAPTER_PARALLEL: "1",
      ADAPTER_GPU: "cuda",
    });
    expect(settings({ SM_LLAMA_CPP_N_GPU_LAYERS: "999" }, "cpu")).toEqual({ ADAPTER_PARALLEL: "1" });
  });

  it("refuses what it cannot honour rather than ignoring it", () => {
    expect(() => settings({ SM_LLAMA_CPP_N_GPU_LAYERS: "12" }, "cuda")).toThrow(/every layer .* or none/);
    expect(() => settings({ SM_LLAMA_CPP_HF_REPO: "org/model" })).toThrow(/network isolation/);
    expect(() => settings({ SM_LLAMA_CPP_ROPE_SCALING: "yarn" })).toThrow(/--rope-scaling .* is not emulated/);
    expect(() => settings({ SM_LLAMA_CPP_CTX_SIZE: "0" })).toThrow(/positive integer/);
  });
});
