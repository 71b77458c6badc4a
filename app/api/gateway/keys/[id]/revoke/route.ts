import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { consoleContext } from "@/server/context.ts";
import { gatewayKeyIdParam } from "@/server/gateway/key-route-params.ts";
import { revokeGatewayKey } from "@/server/gateway/key-store.ts";
import { reply, route } from "@/server/http/route.ts";

type Context = { params: Promise<{ id: string }> };

/** Revokes a key on every replica at once: each gateway call reads the key's row (operators; audited). */
export const POST = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "operator");
  const id = await gatewayKeyIdParam(params);
  const { store } = consoleContext();
  const entry = { actor: principal.name, action: "gateway.key.revoke", target: id };
  return reply(consoleApi.revokeGatewayKey, await audited(store, entry, () => revokeGatewayKey(store, id)));
});
