import { statSync } from "node:fs";
import type { ModelMetadata } from "../contract/common.ts";
import type { ModelList } from "../contract/models.ts";

const STARTED = Math.floor(Date.now() / 1000);

/** The name the adapter answers with in `model` fields: the GGUF's general.name, else its file name. */
export function servedModelId(metadata: ModelMetadata): string {
  return metadata.name ?? metadata.file.replace(/\.gguf$/i, "");
}

/**
 * `GET /v1/models`: the one loaded model, for TypeSafe's and OpenAI's clients alike. Its `release_date` (YYYY-MM-DD)
 * is the GGUF file's modification date: a GGUF records no release date of its own.
 */
export function modelList(metadata: ModelMetadata, modelPath: string): ModelList {
  const id = servedModelId(metadata);
  const released = statSync(modelPath).mtime.toISOString().slice(0, 10);
  const description = `${metadata.architecture ?? "GGUF"} decision model (${metadata.file}, sha256 ${metadata.sha256.slice(0, 12)})`;
  return {
    models: [{ name: id, description, release_date: released }],
    object: "list",
    data: [{ id, object: "model", created: STARTED, owned_by: "decision-console", x_meta: metadata }],
  };
}
