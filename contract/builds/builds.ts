import { z } from "zod";
import { sha256Schema } from "../endpoints/deploy.ts";

export const buildKindSchema = z.enum(["model", "image"]);
export type BuildKind = z.infer<typeof buildKindSchema>;

export const imageVariantSchema = z.enum(["cpu", "cuda"]);
export type ImageVariant = z.infer<typeof imageVariantSchema>;

/** CodeBuild's build and phase statuses, as it reports them. */
export const buildStatusSchema = z.enum(["IN_PROGRESS", "SUCCEEDED", "FAILED", "FAULT", "STOPPED", "TIMED_OUT"]);
export type BuildStatus = z.infer<typeof buildStatusSchema>;

export const buildPhaseSchema = z.object({
  type: z.string(),
  status: buildStatusSchema.nullable(),
  startedAt: z.iso.datetime().nullable(),
  endedAt: z.iso.datetime().nullable(),
  durationSeconds: z.number().nullable(),
  messages: z.array(z.string()),
});
export type BuildPhase = z.infer<typeof buildPhaseSchema>;

export const buildOutputsSchema = z.object({
  modelDataUrl: z.string().nullable(),
  modelSha256: z.string().nullable(),
  /** The packaged GGUF's size in bytes (MODEL_BYTES). */
  modelBytes: z.number().int().nullable(),
  imageUri: z.string().nullable(),
  imageDigest: z.string().nullable(),
});
export type BuildOutputs = z.infer<typeof buildOutputsSchema>;

/** A model build's output: a model.tar.gz object (Gzip) or an uncompressed S3 prefix (None). */
export function compressionOfModelData(modelDataUrl: string): "Gzip" | "None" {
  return modelDataUrl.endsWith(".tar.gz") ? "Gzip" : "None";
}

export const buildSchema = z.object({
  id: z.string(),
  kind: buildKindSchema,
  /** For image builds. */
  variant: imageVariantSchema.nullable(),
  projectName: z.string(),
  status: buildStatusSchema,
  currentPhase: z.string().nullable(),
  startedAt: z.iso.datetime().nullable(),
  endedAt: z.iso.datetime().nullable(),
  phases: z.array(buildPhaseSchema),
  outputs: buildOutputsSchema,
  /** Every exported variable, for anything the outputs do not name. */
  exportedVariables: z.record(z.string(), z.string()),
  /** The variables the console started it with (HF_REPO, HF_REVISION, HF_FILE, GGUF_SHA256, TOKENIZER_*, IMAGE_VARIANT). */
  inputs: z.record(z.string(), z.string()),
  logs: z.object({
    groupName: z.string().nullable(),
    streamName: z.string().nullable(),
    /** Console route that tails the log. */
    tailPath: z.string(),
  }),
  /** What the build ran: CodeBuild's source type and location (`S3`: `bucket/key.zip` of the uploaded archive). */
  source: z.object({ type: z.string(), location: z.string().nullable() }).nullable(),
});
export type Build = z.infer<typeof buildSchema>;

export const buildListSchema = z.object({ builds: z.array(buildSchema) });
export type BuildList = z.infer<typeof buildListSchema>;

export const logLineSchema = z.object({ timestamp: z.iso.datetime(), message: z.string() });
export const buildLogsSchema = z.object({
  lines: z.array(logLineSchema),
  /** Pass back as `?after=` to get only newer lines. */
  nextToken: z.string().nullable(),
});
export type BuildLogs = z.infer<typeof buildLogsSchema>;

/** `GET /api/builds/[id]/logs?after=`: the `nextToken` of the last answer, for newer lines only. */
export const buildLogsQuerySchema = z.object({ after: z.string().min(1).max(2048).optional() });

/** A pinned GGUF on a Hugging Face-style hub; never a floating branch. */
export const ggufPinSchema = z.strictObject({
  repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, "must be owner/name"),
  revision: z.string().regex(/^[0-9a-f]{40}$/, "must be a 40-hex commit, not a branch such as main"),
  file: z.string().regex(/^[\w./-]+\.gguf$/, "must name a .gguf file"),
  sha256: sha256Schema,
  /** Informational (a preset carries it); the packager checks the sha256. */
  bytes: z.number().int().positive().optional(),
});

export const startModelBuildSchema = z.strictObject({
  kind: z.literal("model"),
  gguf: ggufPinSchema,
  tokenizer: z
    .strictObject({
      repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, "must be owner/name"),
      revision: z.string().regex(/^[0-9a-f]{40}$/, "must be a 40-hex commit"),
    })
    .optional(),
  compression: z.enum(["Gzip", "None"]).default("Gzip"),
});

export const startImageBuildSchema = z.strictObject({
  kind: z.literal("image"),
  variant: imageVariantSchema,
});

/** `POST /api/builds` body. */
export const startBuildRequestSchema = z.discriminatedUnion("kind", [startModelBuildSchema, startImageBuildSchema]);
export type StartBuildRequest = z.infer<typeof startBuildRequestSchema>;
export type StartBuildRequestInput = z.input<typeof startBuildRequestSchema>;
