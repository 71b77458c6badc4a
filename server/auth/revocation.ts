import type { Store } from "../store/store.ts";

/**
 * Signed sessions stay valid until they expire unless revoked here: sign-out records the token's id, so a copied
 * cookie stops working too. Rows are kept only until the token would have expired anyway.
 */
export async function revokeSession(store: Store, id: string, expiresAt: Date): Promise<void> {
  const now = new Date().toISOString();
  await store.transaction().execute(async (trx) => {
    await trx.deleteFrom("revoked_sessions").where("expires_at", "<", now).execute();
    await trx
      .insertInto("revoked_sessions")
      .values({ jti: id, expires_at: expiresAt.toISOString() })
      .onConflict((conflict) => conflict.column("jti").doNothing())
      .execute();
  });
}

export async function isRevoked(store: Store, id: string): Promise<boolean> {
  const row = await store.selectFrom("revoked_sessions").select("jti").where("jti", "=", id).executeTakeFirst();
  return row !== undefined;
}
