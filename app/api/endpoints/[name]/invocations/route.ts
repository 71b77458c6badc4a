import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { consoleContext } from "@/server/context.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { endpointGatewayCalls } from "@/server/gateway/usage.ts";
import { readQuery, reply, route } from "@/server/http/route.ts";
import { recentInvocations } from "@/server/invoke/invocation-log.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Invocations made from this console (playground), newest first, and the count of the gateway's in a day. */
export const GET = route(async (request, { params }: { params: Promise<{ name: string }> }) => {
  await requireRole(request, "viewer");
  const name = await endpointNameParam(params);
  const { limit } = readQuery(request, consoleApi.invocations);
  const { store } = consoleContext();
  return reply(consoleApi.invocations, {
    invocations: await recentInvocations(store, name, limit),
    gateway: await endpointGatewayCalls(store, name, Date.now() - DAY_MS),
  });
});
