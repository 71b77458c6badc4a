import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * A gateway API key: `dcg_<id>_<secret>`. The id (12 hex digits) finds the key's row; the secret (32 random bytes,
 * base64url) proves it. The recognisable prefix lets secret scanners and people spot a leaked key. Only the SHA-256
 * of the whole key is stored: the secret has 256 bits of entropy, so a slow password hash would add nothing.
 */
export const API_KEY_PREFIX = "dcg_";
const KEY_PATTERN = /^dcg_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

export interface IssuedKey {
  id: string;
  /** The whole key, shown once to whoever created it. */
  secret: string;
  secretHash: string;
}

export function issueApiKey(): IssuedKey {
  const id = randomBytes(6).toString("hex");
  const secret = `${API_KEY_PREFIX}${id}_${randomBytes(32).toString("base64url")}`;
  return { id, secret, secretHash: hashApiKey(secret) };
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** The id a presented key names, or null when it is not shaped as a gateway key. */
export function apiKeyId(key: string): string | null {
  return KEY_PATTERN.exec(key)?.[1] ?? null;
}

/** Whether `key` hashes to `storedHash`, compared in constant time. */
export function apiKeyMatches(key: string, storedHash: string): boolean {
  const presented = Buffer.from(hashApiKey(key), "hex");
  const stored = Buffer.from(storedHash, "hex");
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** The key a request presents as `Authorization: Bearer <key>`, or null. */
export function bearerKey(request: Request): string | null {
  const header = request.headers.get("authorization");
  const match = header ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header) : null;
  return match?.[1] ?? null;
}
