import { z } from "zod";

export const MANIFEST_FILE_NAME = "model-manifest.json";

const fileEntry = z.object({ file: z.string(), sha256: z.string(), bytes: z.number().int().nonnegative() });

/**
 * `model-manifest.json` beside the GGUF. The adapter checks `gguf.sha256` at start and reports the pins in every
 * response. `gguf {repo, revision, file, sha256}` and `tokenizer {repo, revision}` keep the AWS sample's names.
 */
export const modelManifestSchema = z.object({
  gguf: z.object({
    repo: z.string().optional(),
    revision: z.string().optional(),
    file: z.string(),
    sha256: z.string(),
    bytes: z.number().int().nonnegative(),
  }),
  tokenizer: z.object({ repo: z.string(), revision: z.string(), files: z.array(fileEntry) }).optional(),
  packager: z.object({ name: z.literal("decision-console-model-packager"), version: z.string() }),
});

export type ModelManifest = z.infer<typeof modelManifestSchema>;

export function serializeManifest(manifest: ModelManifest): string {
  return `${JSON.stringify(modelManifestSchema.parse(manifest), null, 2)}\n`;
}
