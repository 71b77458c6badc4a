import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { consoleContext } from "@/server/context.ts";
import { endpointAlarms } from "@/server/endpoints/endpoint-alarms.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { reply, route } from "@/server/http/route.ts";

/** EndpointAlarms: the alarms the console created for the endpoint, their states and state changes. */
export const GET = route(async (request, { params }: { params: Promise<{ name: string }> }) => {
  await requireRole(request, "viewer");
  const name = await endpointNameParam(params);
  return reply(consoleApi.endpointAlarms, await endpointAlarms(consoleContext().aws, name));
});
