import { consoleApi } from "@/contract/api.ts";
import { beginSignIn, oidcFlowCookieName, oidcSettings } from "@/server/auth/oidc.ts";
import { isTls, sessionKey } from "@/server/auth/session.ts";
import { consoleConfig } from "@/server/config.ts";
import { AppError } from "@/server/http/app-error.ts";
import { readQuery, route } from "@/server/http/route.ts";

export const GET = route(async (request) => {
  const config = consoleConfig();
  const settings = oidcSettings(config);
  if (!settings) throw new AppError("not_found", "Single sign-on is not configured on this console.");
  const next = readQuery(request, consoleApi.oidcStart).next ?? "/";
  const { location, flowToken } = await beginSignIn(settings, sessionKey(config), next);
  const cookie = [
    `${oidcFlowCookieName}=${flowToken}`,
    "Path=/api/auth/oidc",
    "HttpOnly",
    "SameSite=Lax",
    "Max-Age=600",
    ...(isTls(request, config) ? ["Secure"] : []),
  ].join("; ");
  return new Response(null, { status: 302, headers: { location: location.toString(), "set-cookie": cookie } });
});
