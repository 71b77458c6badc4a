import type { GatewayKey } from "../../contract/gateway/keys.ts";
import type { Store } from "../store/store.ts";
import { apiKeyId, apiKeyMatches, hashApiKey } from "./api-key.ts";
import { authenticateGatewayKey, type KeyRefusal } from "./key-store.ts";

/** A key a presented secret names: read from the store for this call, or as this process read it before. */
export type PresentedKey = { key: GatewayKey; readNow: boolean } | { refused: KeyRefusal };

/**
 * The keys this console process has read, by id, so that a decision's key check needs no store read of its own.
 * A key known here proves nothing by itself: the statement that admits the call (`KeyLimits.admit`) spends only
 * while the key's row still says what was read and is not revoked, so a revoked or changed key is refused on every
 * replica from its next call on. Whoever gets a refusal before that statement, or "key-changed" from it, reads the
 * key again (`read`).
 */
export interface KnownKeys {
  /** The key as last read, or as the store has it now where this process has not read it, or it has expired. */
  presented(secret: string | null, now?: Date): Promise<PresentedKey>;
  /** The key as the store has it now. */
  read(secret: string | null, now?: Date): Promise<PresentedKey>;
}

/** Enough for every key a console has; past it the oldest read is forgotten (and read again on its next call). */
const mostKnown = 10_000;

export function knownKeys(store: Store): KnownKeys {
  const known = new Map<string, { key: GatewayKey; secretHash: string }>();
  const read = async (secret: string | null, now = new Date()): Promise<PresentedKey> => {
    const outcome = await authenticateGatewayKey(store, secret, now);
    if ("refused" in outcome) {
      // A wrong secret for a known id leaves the key as it is: only its own secret's refusal forgets it.
      const id = secret === null ? null : apiKeyId(secret);
      if (id !== null && known.get(id)?.secretHash === hashApiKey(secret as string)) known.delete(id);
      return outcome;
    }
    known.delete(outcome.key.id);
    if (known.size >= mostKnown) known.delete(known.keys().next().value as string);
    known.set(outcome.key.id, { key: outcome.key, secretHash: hashApiKey(secret as string) });
    return { key: outcome.key, readNow: true };
  };
  return {
    read,
    async presented(secret, now = new Date()) {
      const id = secret === null ? null : apiKeyId(secret);
      const entry = id === null ? undefined : known.get(id);
      const expired = entry?.key.expiresAt != null && Date.parse(entry.key.expiresAt) <= now.getTime();
      if (!entry || expired || !apiKeyMatches(secret as string, entry.secretHash)) return read(secret, now);
      return { key: entry.key, readNow: false };
    },
  };
}
