import type { Selectable } from "kysely";
import type { CreateGatewayKey, GatewayKey, UpdateGatewayKey } from "../../contract/gateway/keys.ts";
import { AppError } from "../http/app-error.ts";
import type { ConsoleTables } from "../store/schema.ts";
import type { Store } from "../store/store.ts";
import { isUniqueViolation } from "../store/unique-violation.ts";
import { apiKeyId, apiKeyMatches, issueApiKey } from "./api-key.ts";

type KeyRow = Selectable<ConsoleTables["gateway_keys"]>;

function toKey(row: KeyRow): GatewayKey {
  return {
    id: row.id,
    name: row.name,
    endpoints: JSON.parse(row.endpoints) as string[],
    aliases: JSON.parse(row.aliases) as Record<string, string>,
    requestsPerMinute: row.requests_per_minute,
    tokensPerMinute: row.tokens_per_minute,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const canonicalTime = (iso: string | null) => (iso === null ? null : new Date(iso).toISOString());

/** Stores a new key (only its hash) and returns it with its secret, which is never readable again. */
export async function createGatewayKey(
  store: Store,
  request: CreateGatewayKey,
  createdBy: string,
  now = new Date(),
): Promise<{ key: GatewayKey; secret: string }> {
  const issued = issueApiKey();
  const at = now.toISOString();
  const row: KeyRow = {
    id: issued.id,
    name: request.name,
    secret_hash: issued.secretHash,
    endpoints: JSON.stringify(request.endpoints),
    aliases: JSON.stringify(request.aliases),
    requests_per_minute: request.requestsPerMinute,
    tokens_per_minute: request.tokensPerMinute,
    expires_at: canonicalTime(request.expiresAt),
    revoked_at: null,
    created_by: createdBy,
    created_at: at,
    updated_at: at,
  };
  try {
    await store.insertInto("gateway_keys").values(row).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("conflict", `A key named "${request.name}" exists already.`);
    throw error;
  }
  return { key: toKey(row), secret: issued.secret };
}

export async function listGatewayKeys(store: Store): Promise<GatewayKey[]> {
  const rows = await store.selectFrom("gateway_keys").selectAll().orderBy("created_at", "desc").execute();
  return rows.map(toKey);
}

async function existingRow(store: Store, id: string): Promise<KeyRow> {
  const row = await store.selectFrom("gateway_keys").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw new AppError("not_found", `No gateway key has the id ${id}.`);
  return row;
}

/** Changes a key's scope, aliases, limits or expiry; a revoked key stays revoked. */
export async function updateGatewayKey(
  store: Store,
  id: string,
  change: UpdateGatewayKey,
  now = new Date(),
): Promise<GatewayKey> {
  const row = await existingRow(store, id);
  if (row.revoked_at !== null) throw new AppError("conflict", `The key "${row.name}" is revoked; create a new one.`);
  await store
    .updateTable("gateway_keys")
    .set({
      ...(change.endpoints && { endpoints: JSON.stringify(change.endpoints) }),
      ...(change.aliases && { aliases: JSON.stringify(change.aliases) }),
      ...(change.requestsPerMinute !== undefined && { requests_per_minute: change.requestsPerMinute }),
      ...(change.tokensPerMinute !== undefined && { tokens_per_minute: change.tokensPerMinute }),
      ...(change.expiresAt !== undefined && { expires_at: canonicalTime(change.expiresAt) }),
      updated_at: now.toISOString(),
    })
    .where("id", "=", id)
    .execute();
  return toKey(await existingRow(store, id));
}

/** Revokes a key: every replica reads the key's row on each call, so all refuse it from now on. */
export async function revokeGatewayKey(store: Store, id: string, now = new Date()): Promise<GatewayKey> {
  const row = await existingRow(store, id);
  if (row.revoked_at === null) {
    const at = now.toISOString();
    await store
      .updateTable("gateway_keys")
      .set({ revoked_at: at, updated_at: at })
      .where("id", "=", id)
      .where("revoked_at", "is", null)
      .execute();
  }
  return toKey(await existingRow(store, id));
}

export type KeyRefusal = "missing" | "unknown" | "revoked" | "expired";

/** The key a presented secret proves, or why it proves none. */
export async function authenticateGatewayKey(
  store: Store,
  presented: string | null,
  now = new Date(),
): Promise<{ key: GatewayKey } | { refused: KeyRefusal }> {
  if (presented === null) return { refused: "missing" };
  const id = apiKeyId(presented);
  const row = id
    ? await store.selectFrom("gateway_keys").selectAll().where("id", "=", id).executeTakeFirst()
    : undefined;
  if (!row || !apiKeyMatches(presented, row.secret_hash)) return { refused: "unknown" };
  if (row.revoked_at !== null) return { refused: "revoked" };
  if (row.expires_at !== null && Date.parse(row.expires_at) <= now.getTime()) return { refused: "expired" };
  return { key: toKey(row) };
}
