import { createHash } from "node:crypto";
import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import { cachedModelPath, modelPin, TRAINED_MODEL } from "../models/pins.ts";

/** The seed's name: its artifact is `s3://decision-console-local/models/seed/SmolLM2-135M-Instruct/model.tar.gz`. */
export const TRAINED_SEED_NAME = "SmolLM2-135M-Instruct";

export type TrainedSeedSource =
  | { name: string; path: string; sha256: string; skipReason: null }
  | { name: string; path: null; skipReason: string };

/** The pinned trained model where `npm run models:fetch` caches it. */
export function cachedTrainedModel(): { path: string; sha256: string; bytes: number } {
  const pin = modelPin(TRAINED_MODEL);
  return { path: cachedModelPath(pin), sha256: pin.sha256, bytes: pin.bytes };
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest("hex");
}

/**
 * The trained model to seed on first run, only when the cache holds exactly the pinned file (size, then sha256:
 * the cache is outside git and anything may have written it), else the reason it is not seeded.
 */
export async function trainedSeedSource(
  cached: { path: string; sha256: string; bytes: number } = cachedTrainedModel(),
): Promise<TrainedSeedSource> {
  const name = TRAINED_SEED_NAME;
  let size: number;
  try {
    size = fs.statSync(cached.path).size;
  } catch {
    return { name, path: null, skipReason: `${name} not found at ${cached.path} (run \`npm run models:fetch\`)` };
  }
  if (size !== cached.bytes) {
    return { name, path: null, skipReason: `${cached.path} is ${size} bytes, not the pinned ${cached.bytes}` };
  }
  const sha256 = await sha256Of(cached.path);
  if (sha256 !== cached.sha256) {
    return { name, path: null, skipReason: `${cached.path} has sha256 ${sha256}, not the pinned ${cached.sha256}` };
  }
  return { name, path: cached.path, sha256, skipReason: null };
}
