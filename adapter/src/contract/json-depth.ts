/**
 * How deeply arrays and objects may nest in JSON a client sends (adapter request bodies, the console's request
 * bodies and dataset rows). JSON.parse itself copes with any depth, but everything that walks the value afterwards
 * (validation, canonical rendering, JSON.stringify) recurses and overflows the stack near a few thousand levels.
 */
export const MAX_JSON_DEPTH = 128;

/** Thrown by `parseJsonWithinDepth` for a text nested deeper than the limit; its message says so. */
export class JsonTooDeepError extends Error {
  constructor(readonly limit: number) {
    super(`JSON nested deeper than ${limit} levels`);
    this.name = "JsonTooDeepError";
  }
}

/** Whether a JSON text opens more than `limit` arrays or objects inside each other; one pass, no parsing. */
export function jsonNestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** JSON.parse, refusing texts nested deeper than `limit` before parsing them (JsonTooDeepError). */
export function parseJsonWithinDepth(text: string, limit = MAX_JSON_DEPTH): unknown {
  if (jsonNestsDeeperThan(text, limit)) throw new JsonTooDeepError(limit);
  return JSON.parse(text);
}
