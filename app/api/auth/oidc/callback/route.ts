import { recordAudit } from "@/server/audit/record.ts";
import { completeSignIn, oidcFlowCookieName, oidcSettings } from "@/server/auth/oidc.ts";
import { readCookie, sessionCookie, sessionKey, signSession } from "@/server/auth/session.ts";
import { consoleConfig } from "@/server/config.ts";
import { AppError } from "@/server/http/app-error.ts";
import { route } from "@/server/http/route.ts";

export const GET = route(async (request) => {
  const config = consoleConfig();
  const settings = oidcSettings(config);
  if (!settings) throw new AppError("not_found", "Single sign-on is not configured on this console.");
  const key = sessionKey(config);
  const { session, next } = await completeSignIn(
    settings,
    key,
    readCookie(request, oidcFlowCookieName),
    new URL(request.url),
  );
  await recordAudit({
    actor: session.name,
    action: "auth.login",
    target: session.name,
    result: "ok",
    detail: { via: "oidc" },
  });
  const headers = new Headers({ location: new URL(next, settings.redirectUri).toString() });
  headers.append("set-cookie", sessionCookie(request, await signSession(session, key), config));
  headers.append("set-cookie", `${oidcFlowCookieName}=; Path=/api/auth/oidc; HttpOnly; SameSite=Lax; Max-Age=0`);
  return new Response(null, { status: 303, headers });
});
