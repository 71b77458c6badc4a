import { consoleApi } from "@/contract/api.ts";
import { oidcSettings } from "@/server/auth/oidc.ts";
import { defaultAuthContext, principalOf } from "@/server/auth/principal.ts";
import { usersConfigured } from "@/server/auth/users.ts";
import { reply, route } from "@/server/http/route.ts";

/** Who is signed in (null when nobody), and how this console signs people in. */
export const GET = route(async (request) => {
  const context = defaultAuthContext();
  const principal = await principalOf(request, context);
  return reply(consoleApi.me, {
    user: principal,
    mode: (await usersConfigured(context.store, context.config)) ? "users" : "local",
    singleSignOn: oidcSettings(context.config) !== null,
  });
});
