import { z } from "zod";

const sha256Hex = z
  .string()
  .regex(/^[0-9a-f]{64}$/, "sha256 must be 64 lowercase hexadecimal characters")
  .describe("sha256 of the file");

/** A revision must be a commit hash: a branch such as `main` moves and would make the pin meaningless. */
const revision = z.string().regex(/^[0-9a-f]{40}$/, "revision must be a 40-character commit hash, not a branch or tag");

const repo = z.string().regex(/^[\w.-]+\/[\w.-]+$/, "repo must look like owner/name");

const repoFile = z
  .string()
  .min(1)
  .refine((file) => !file.startsWith("/") && !file.split("/").includes(".."), "file must be a path inside the repo");

export const huggingFaceSourceSchema = z.object({
  kind: z.literal("huggingface"),
  repo,
  revision,
  file: repoFile.refine((file) => file.endsWith(".gguf"), "file must be a .gguf file"),
  sha256: sha256Hex,
});

export const localSourceSchema = z.object({
  kind: z.literal("local"),
  path: z
    .string()
    .min(1)
    .refine((path) => path.endsWith(".gguf"), "path must name a .gguf file"),
  sha256: sha256Hex.optional(),
  repo: repo.optional(),
  revision: revision.optional(),
});

export const modelSourceSchema = z.discriminatedUnion("kind", [huggingFaceSourceSchema, localSourceSchema]);

export const tokenizerPinSchema = z.object({
  repo,
  revision,
  files: z.array(repoFile).min(1).default(["tokenizer.json", "tokenizer_config.json"]),
});

export type HuggingFaceSource = z.infer<typeof huggingFaceSourceSchema>;
export type LocalSource = z.infer<typeof localSourceSchema>;
export type ModelSource = z.infer<typeof modelSourceSchema>;
export type TokenizerPin = z.input<typeof tokenizerPinSchema>;

export const DEFAULT_HF_ENDPOINT = "https://huggingface.co";

/** The `resolve` URL of one file at one commit, as the Hugging Face Hub (or a mirror at `HF_ENDPOINT`) serves it. */
export function huggingFaceFileUrl(endpoint: string, pin: { repo: string; revision: string; file: string }): string {
  const base = endpoint.replace(/\/+$/, "");
  const file = pin.file.split("/").map(encodeURIComponent).join("/");
  return `${base}/${pin.repo}/resolve/${pin.revision}/${file}`;
}
