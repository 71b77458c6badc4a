import { z } from "zod";

/** Every adapter error body. `retryable` is present (true) only on the 503 "model is busy" answer. */
export const errorBodySchema = z.object({
  error: z.string(),
  retryable: z.boolean().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const BUSY_ERROR: ErrorBody = { error: "model is busy; retry the request", retryable: true };
export const SCORING_FAILED_ERROR: ErrorBody = { error: "scoring failed" };

/** Pins of `model-manifest.json` beside the GGUF (DESIGN §11), reported as read. */
export const modelManifestSchema = z.object({
  gguf: z.object({
    repo: z.string().optional(),
    revision: z.string().optional(),
    file: z.string().optional(),
    sha256: z.string(),
  }),
  tokenizer: z.object({ repo: z.string().optional(), revision: z.string().optional() }).optional(),
});
export type ModelManifest = z.infer<typeof modelManifestSchema>;

/** What the adapter reports about the model it serves, in every scoring response. */
export const modelMetadataSchema = z.object({
  file: z.string(),
  bytes: z.number().int(),
  sha256: z.string(),
  manifest: modelManifestSchema.nullable(),
  architecture: z.string().nullable(),
  name: z.string().nullable(),
  backend: z.string(),
  gpu_layers: z.number().int(),
  total_layers: z.number().int(),
  threads: z.number().int(),
  context_size: z.number().int(),
  parallel: z.number().int(),
  chat_template: z.enum(["gguf", "fallback"]),
});
export type ModelMetadata = z.infer<typeof modelMetadataSchema>;

/**
 * Where a scoring request's tokens came from (decisions and /v1/systemone alike; see the adapter README). The
 * adapter always sends them; optional so that clients parse answers of adapters from before they existed.
 */
export const reuseTimingShape = {
  /** Prompt tokens found already evaluated in a sequence (an earlier request's) and kept. */
  reused_tokens: z.number().int().optional(),
  /** Prompt tokens a lane got by copying another sequence's state instead of evaluating them. */
  copied_tokens: z.number().int().optional(),
  /** Tokens put through forward passes. */
  evaluated_tokens: z.number().int().optional(),
  /** Context sequences the branches were evaluated on together (1: one after another). */
  lanes: z.number().int().optional(),
  /** Branches answered from the reading cache (exact repeats), with no forward pass. */
  cache_hits: z.number().int().optional(),
  /** Entries in the reading cache after this request (at most ADAPTER_READING_CACHE). */
  cache_entries: z.number().int().optional(),
};

/** Timing of one scoring request; a single decision is a batch of one. */
export const timingSchema = z.object({
  batch_size: z.number().int(),
  prefix_tokens: z.number().int(),
  prefix_reused: z.boolean().optional(),
  prefill_seconds: z.number(),
  suffix_forward_seconds: z.number(),
  max_request_tokens: z.number().int(),
  max_tokens_per_decision: z.number().int(),
  queue_seconds: z.number().optional(),
  total_seconds: z.number(),
  ...reuseTimingShape,
});
export type Timing = z.infer<typeof timingSchema>;
