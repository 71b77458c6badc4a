import type { ModelPreset } from "../../contract/builds/model-presets.ts";

/**
 * Presets pinned exactly (repo, revision, file, sha256, bytes); never a floating branch. Only pins the project
 * can state exactly are listed: the AWS sample's quality-first default (DESIGN §11).
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
];
