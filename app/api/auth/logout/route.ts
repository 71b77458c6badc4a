import { recordAudit } from "@/server/audit/record.ts";
import { principalOf } from "@/server/auth/principal.ts";
import { clearedSessionCookie } from "@/server/auth/session.ts";
import { route } from "@/server/http/route.ts";

export const POST = route(async (request) => {
  const principal = await principalOf(request);
  if (principal && principal.source !== "local") {
    recordAudit({ actor: principal.name, action: "auth.logout", target: principal.name, result: "ok" });
  }
  return Response.json({ user: null }, { headers: { "set-cookie": clearedSessionCookie(request) } });
});
