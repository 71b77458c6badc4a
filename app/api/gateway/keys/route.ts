import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { consoleContext } from "@/server/context.ts";
import { createGatewayKey, listGatewayKeys } from "@/server/gateway/key-store.ts";
import { gatewayKeyUsage } from "@/server/gateway/usage.ts";
import { readJson, reply, route } from "@/server/http/route.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The gateway's keys with a day of usage each; secrets are never stored, so never shown (viewers). */
export const GET = route(async (request) => {
  await requireRole(request, "viewer");
  const { store } = consoleContext();
  const keys = await listGatewayKeys(store);
  const usage = await gatewayKeyUsage(
    store,
    keys.map((key) => key.id),
    Date.now() - DAY_MS,
  );
  return reply(consoleApi.listGatewayKeys, { keys: keys.map((key) => ({ ...key, usage: usage.get(key.id)! })) });
});

/** Creates a key; its secret is in this answer only (operators; audited, without the secret). */
export const POST = route(async (request) => {
  const principal = await requireRole(request, "operator");
  const body = await readJson(request, consoleApi.createGatewayKey.body);
  const { store } = consoleContext();
  const entry = {
    actor: principal.name,
    action: "gateway.key.create",
    target: body.name,
    outcome: ({ key }: { key: { id: string } }) => ({ ...body, id: key.id }),
  };
  const created = await audited(store, entry, () => createGatewayKey(store, body, principal.name));
  return reply(consoleApi.createGatewayKey, created);
});
