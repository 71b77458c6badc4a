import { recordAudit } from "@/server/audit/record.ts";
import { consoleDatabase } from "@/server/auth/console-database.ts";
import { revokeSession } from "@/server/auth/revocation.ts";
import {
  clearedSessionCookie,
  readCookie,
  sessionCookieName,
  sessionKey,
  verifySessionToken,
} from "@/server/auth/session.ts";
import { route } from "@/server/http/route.ts";

/** Ends this session on the server too (its id is revoked), not only in this browser. */
export const POST = route(async (request) => {
  const verified = await verifySessionToken(readCookie(request, sessionCookieName), sessionKey());
  if (verified) {
    const db = consoleDatabase();
    revokeSession(db, verified.id, verified.expiresAt);
    recordAudit(
      { actor: verified.session.name, action: "auth.logout", target: verified.session.name, result: "ok" },
      db,
    );
  }
  return Response.json({ user: null }, { headers: { "set-cookie": clearedSessionCookie(request) } });
});
