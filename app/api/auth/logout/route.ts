import { consoleApi } from "@/contract/api.ts";
import { recordAudit } from "@/server/audit/record.ts";
import { revokeSession } from "@/server/auth/revocation.ts";
import {
  clearedSessionCookie,
  readCookie,
  sessionCookieName,
  sessionKey,
  verifySessionToken,
} from "@/server/auth/session.ts";
import { consoleConfig } from "@/server/config.ts";
import { reply, route } from "@/server/http/route.ts";
import { consoleStore } from "@/server/store/console-database.ts";

/** Ends this session on the server too (its id is revoked), not only in this browser. */
export const POST = route(async (request) => {
  const config = consoleConfig();
  const verified = await verifySessionToken(readCookie(request, sessionCookieName), sessionKey(config));
  if (verified) {
    const store = consoleStore(config);
    await revokeSession(store, verified.id, verified.expiresAt);
    await recordAudit(
      { actor: verified.session.name, action: "auth.logout", target: verified.session.name, result: "ok" },
      store,
    );
  }
  return reply(consoleApi.logout, { user: null }, { headers: { "set-cookie": clearedSessionCookie(request, config) } });
});
