import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { consoleContext } from "@/server/context.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { readQuery, reply, route } from "@/server/http/route.ts";
import { endpointMonitoring } from "@/server/monitoring/endpoint-monitoring.ts";

/** The endpoint's decisions as its capture files show them: counts, chosen options, confidence, fallback, latency. */
export const GET = route(async (request, { params }: { params: Promise<{ name: string }> }) => {
  await requireRole(request, "viewer");
  const name = await endpointNameParam(params);
  const query = readQuery(request, consoleApi.endpointMonitoring);
  const { aws, store, settings } = consoleContext();
  const deps = {
    s3: aws.s3,
    sageMaker: aws.sageMaker,
    cloudWatch: aws.cloudWatch,
    store,
    artifactBucket: settings.artifactBucket,
  };
  const answer = await endpointMonitoring(deps, name, query);
  return reply(consoleApi.endpointMonitoring, answer);
});
