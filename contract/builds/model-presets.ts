import { z } from "zod";

export const modelPresetSchema = z.object({
  id: z.string(),
  label: z.string(),
  gguf: z.object({
    repo: z.string(),
    revision: z.string(),
    file: z.string(),
    sha256: z.string(),
    bytes: z.number().int(),
  }),
  tokenizer: z.object({ repo: z.string(), revision: z.string() }).nullable(),
  notes: z.string(),
});
export type ModelPreset = z.infer<typeof modelPresetSchema>;

export const modelPresetListSchema = z.object({ presets: z.array(modelPresetSchema) });
export type ModelPresetList = z.infer<typeof modelPresetListSchema>;
