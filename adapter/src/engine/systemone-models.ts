import type { ModelMetadata } from "../contract/common.ts";
import type { ModelList } from "../contract/systemone.ts";

const STARTED = Math.floor(Date.now() / 1000);

/** The name the adapter answers with in `model` fields: the GGUF's general.name, else its file name. */
export function servedModelId(metadata: ModelMetadata): string {
  return metadata.name ?? metadata.file.replace(/\.gguf$/i, "");
}

/** `GET /v1/models`: the one loaded model, with the metadata every decision response carries. */
export function modelList(metadata: ModelMetadata): ModelList {
  return {
    object: "list",
    data: [
      { id: servedModelId(metadata), object: "model", created: STARTED, owned_by: "decision-console", meta: metadata },
    ],
  };
}
