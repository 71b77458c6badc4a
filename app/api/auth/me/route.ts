import { oidcSettings } from "@/server/auth/oidc.ts";
import { defaultAuthContext, principalOf } from "@/server/auth/principal.ts";
import { usersConfigured } from "@/server/auth/users.ts";
import { route } from "@/server/http/route.ts";

/** Who is signed in (null when nobody), and how this console signs people in. */
export const GET = route(async (request) => {
  const context = defaultAuthContext();
  const principal = await principalOf(request, context);
  return Response.json({
    user: principal,
    mode: usersConfigured(context.db, context.env) ? "users" : "local",
    singleSignOn: oidcSettings(context.env) !== null,
  });
});
