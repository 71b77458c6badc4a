import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { consoleContext } from "@/server/context.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { readQuery, reply, route } from "@/server/http/route.ts";
import { endpointLogs } from "@/server/logs/endpoint-logs.ts";

/** EndpointLogs: the endpoint's recent log lines, `?minutes=` (default 60), `?filterPattern=`, `?limit=` (200). */
export const GET = route(async (request, { params }: { params: Promise<{ name: string }> }) => {
  await requireRole(request, "viewer");
  const name = await endpointNameParam(params);
  const query = readQuery(request, consoleApi.endpointLogs);
  const { aws } = consoleContext();
  return reply(consoleApi.endpointLogs, await endpointLogs(aws.logs, name, query));
});
