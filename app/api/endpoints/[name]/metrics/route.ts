import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { consoleContext } from "@/server/context.ts";
import { variantName } from "@/server/endpoints/deploy.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { readQuery, reply, route } from "@/server/http/route.ts";
import { endpointMetrics } from "@/server/metrics/endpoint-metrics.ts";
import { instanceHistory } from "@/server/metrics/instance-history.ts";

/** EndpointMetrics and the instance counts: `?minutes=` (default 180) and `?periodSeconds=` (default 300). */
export const GET = route(async (request, { params }: { params: Promise<{ name: string }> }) => {
  await requireRole(request, "viewer");
  const name = await endpointNameParam(params);
  const query = readQuery(request, consoleApi.endpointMetrics);
  const { aws } = consoleContext();
  const now = new Date();
  const metrics = await endpointMetrics(aws.cloudWatch, name, variantName, query, now);
  const instances = await instanceHistory(aws, name, new Date(metrics.from), now);
  return reply(consoleApi.endpointMetrics, { ...metrics, instances });
});
