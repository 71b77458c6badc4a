import { beginSignIn, oidcFlowCookieName, oidcSettings } from "@/server/auth/oidc.ts";
import { isTls, sessionKey } from "@/server/auth/session.ts";
import { AppError } from "@/server/http/app-error.ts";
import { route } from "@/server/http/route.ts";

export const GET = route(async (request) => {
  const settings = oidcSettings();
  if (!settings) throw new AppError("not_found", "Single sign-on is not configured on this console.");
  const next = new URL(request.url).searchParams.get("next") ?? "/";
  const { location, flowToken } = await beginSignIn(settings, sessionKey(), next);
  const cookie = [
    `${oidcFlowCookieName}=${flowToken}`,
    "Path=/api/auth/oidc",
    "HttpOnly",
    "SameSite=Lax",
    "Max-Age=600",
    ...(isTls(request) ? ["Secure"] : []),
  ].join("; ");
  return new Response(null, { status: 302, headers: { location: location.toString(), "set-cookie": cookie } });
});
