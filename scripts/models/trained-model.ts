import { statSync } from "node:fs";
import path from "node:path";
import { MODEL_CACHE, modelPin, TRAINED_MODEL } from "./pins.ts";

/**
 * The trained model for model tests and benchmarks: its cached path once `npm run models:fetch` has put it
 * there, or null with the reason to print when skipping. Only the size is checked here (hashing 98 MB in every
 * test file is slow); models:fetch verified the sha256 when it wrote the file.
 */
export type TrainedModel = { path: string; displayName: string; skipReason: null } | { path: null; skipReason: string };

export function trainedModel(cache = MODEL_CACHE): TrainedModel {
  const pin = modelPin(TRAINED_MODEL);
  const file = path.join(cache, pin.file);
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return { path: null, skipReason: `${pin.displayName} not found at ${file}: run \`npm run models:fetch\`` };
  }
  if (size !== pin.bytes) {
    return {
      path: null,
      skipReason: `${file} is ${size} bytes, not the pinned ${pin.bytes}: run \`npm run models:fetch\` again`,
    };
  }
  return { path: file, displayName: pin.displayName, skipReason: null };
}

export function trainedModelPath(): string | null {
  return trainedModel().path;
}
