import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { consoleContext } from "@/server/context.ts";
import { gatewayKeyIdParam } from "@/server/gateway/key-route-params.ts";
import { updateGatewayKey } from "@/server/gateway/key-store.ts";
import { readJson, reply, route } from "@/server/http/route.ts";

type Context = { params: Promise<{ id: string }> };

/** Changes a key's endpoints, aliases, limits or expiry (operators; audited). */
export const PATCH = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "operator");
  const id = await gatewayKeyIdParam(params);
  const body = await readJson(request, consoleApi.updateGatewayKey.body);
  const { store } = consoleContext();
  const entry = { actor: principal.name, action: "gateway.key.update", target: id, detail: body };
  return reply(consoleApi.updateGatewayKey, await audited(store, entry, () => updateGatewayKey(store, id, body)));
});
