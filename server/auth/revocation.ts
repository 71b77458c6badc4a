import type { Db } from "../store/database.ts";

/**
 * Signed sessions stay valid until they expire unless revoked here: sign-out records the token's id, so a copied
 * cookie stops working too. Rows are kept only until the token would have expired anyway.
 */
export function revokeSession(db: Db, id: string, expiresAt: Date): void {
  const now = new Date().toISOString();
  db.transaction(() => {
    db.prepare("DELETE FROM revoked_sessions WHERE expires_at < ?").run(now);
    db.prepare("INSERT OR IGNORE INTO revoked_sessions (jti, expires_at) VALUES (?, ?)").run(
      id,
      expiresAt.toISOString(),
    );
  })();
}

export function isRevoked(db: Db, id: string): boolean {
  return db.prepare("SELECT 1 FROM revoked_sessions WHERE jti = ?").get(id) !== undefined;
}
