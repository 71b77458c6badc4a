import { z } from "zod";
import type { ModelSource, TokenizerPin } from "./model-source.ts";
import type { ModelCompression, PackagedModel } from "./package-model.ts";
import { PackagerError } from "./packager-error.ts";

/** What the CLI reads from its environment (CodeBuild project variables, or the local control plane's job). */
export interface PackagerEnvOptions {
  source: ModelSource;
  tokenizer?: TokenizerPin;
  compression: ModelCompression;
  bucket: string;
  prefix?: string;
  hfEndpoint?: string;
  hfToken?: string;
  workDir: string;
}

const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
const optional = z.preprocess(blankToUndefined, z.string().trim().optional());

const envSchema = z.object({
  HF_REPO: optional,
  HF_REVISION: optional,
  HF_FILE: optional,
  GGUF_SHA256: z.preprocess(blankToUndefined, z.string().trim().toLowerCase().optional()),
  SOURCE_PATH: optional,
  TOKENIZER_REPO: optional,
  TOKENIZER_REVISION: optional,
  COMPRESSION: z.preprocess(
    blankToUndefined,
    z.enum(["gzip", "none"], { message: "COMPRESSION must be gzip or none" }).default("gzip"),
  ),
  ARTIFACT_BUCKET: z.preprocess(blankToUndefined, z.string({ message: "ARTIFACT_BUCKET is required" })),
  ARTIFACT_PREFIX: optional,
  HF_ENDPOINT: optional,
  HF_TOKEN: optional,
  PACKAGER_WORK_DIR: optional,
});

/** Every variable the packager reads (the buildspec's and CodeBuild project's), and nothing else. */
export const PACKAGER_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

export function parsePackagerEnv(env: Record<string, string | undefined>, defaultWorkDir: string): PackagerEnvOptions {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new PackagerError("invalid_input", parsed.error.issues.map((issue) => issue.message).join("; "));
  }
  const e = parsed.data;
  const hfFields = [e.HF_REPO, e.HF_REVISION, e.HF_FILE];
  let source: ModelSource;
  if (e.SOURCE_PATH !== undefined) {
    if (e.HF_FILE !== undefined) {
      throw new PackagerError("invalid_input", "Set either SOURCE_PATH or HF_REPO/HF_REVISION/HF_FILE, not both");
    }
    source = { kind: "local", path: e.SOURCE_PATH, sha256: e.GGUF_SHA256, repo: e.HF_REPO, revision: e.HF_REVISION };
  } else if (hfFields.every((field) => field !== undefined)) {
    if (e.GGUF_SHA256 === undefined) {
      throw new PackagerError("invalid_input", "GGUF_SHA256 is required for a Hugging Face source");
    }
    source = {
      kind: "huggingface",
      repo: e.HF_REPO!,
      revision: e.HF_REVISION!,
      file: e.HF_FILE!,
      sha256: e.GGUF_SHA256,
    };
  } else {
    throw new PackagerError(
      "invalid_input",
      "Set HF_REPO, HF_REVISION, HF_FILE and GGUF_SHA256 for a Hugging Face source, or SOURCE_PATH for a local file",
    );
  }
  if ((e.TOKENIZER_REPO === undefined) !== (e.TOKENIZER_REVISION === undefined)) {
    throw new PackagerError("invalid_input", "Set both TOKENIZER_REPO and TOKENIZER_REVISION, or neither");
  }
  return {
    source,
    tokenizer:
      e.TOKENIZER_REPO !== undefined && e.TOKENIZER_REVISION !== undefined
        ? { repo: e.TOKENIZER_REPO, revision: e.TOKENIZER_REVISION }
        : undefined,
    compression: e.COMPRESSION,
    bucket: e.ARTIFACT_BUCKET,
    prefix: e.ARTIFACT_PREFIX,
    hfEndpoint: e.HF_ENDPOINT,
    hfToken: e.HF_TOKEN,
    workDir: e.PACKAGER_WORK_DIR ?? defaultWorkDir,
  };
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'"'"'`)}'`;
}

/**
 * The lines the buildspec sources (`. ./packager.env`) so CodeBuild can export them (`env: exported-variables`).
 */
export function exportLines(result: PackagedModel): string {
  const values: Record<string, string> = {
    MODEL_DATA_URL: result.modelDataUrl,
    MODEL_SHA256: result.sha256,
    MODEL_BYTES: String(result.bytes),
    MODEL_COMPRESSION: result.compression,
  };
  return Object.entries(values)
    .map(([name, value]) => `export ${name}=${shellQuote(value)}\n`)
    .join("");
}
