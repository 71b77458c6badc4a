import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { consoleContext } from "@/server/context.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { readQuery, reply, route } from "@/server/http/route.ts";
import { recentInvocations } from "@/server/invoke/invocation-log.ts";

/** Invocations made from this console (playground), newest first. */
export const GET = route(async (request, { params }: { params: Promise<{ name: string }> }) => {
  await requireRole(request, "viewer");
  const name = await endpointNameParam(params);
  const { limit } = readQuery(request, consoleApi.invocations);
  return reply(consoleApi.invocations, { invocations: await recentInvocations(consoleContext().store, name, limit) });
});
