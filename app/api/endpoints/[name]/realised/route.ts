import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { consoleContext } from "@/server/context.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { readQuery, reply, route } from "@/server/http/route.ts";
import { endpointRealisedQuality } from "@/server/monitoring/endpoint-realised-quality.ts";

/** Realised quality per decision kind: the captured decisions' labels against what the evaluation measured. */
export const GET = route(async (request, { params }: { params: Promise<{ name: string }> }) => {
  await requireRole(request, "viewer");
  const name = await endpointNameParam(params);
  const query = readQuery(request, consoleApi.realisedQuality);
  const { aws, store, settings } = consoleContext();
  const deps = { s3: aws.s3, sageMaker: aws.sageMaker, store, artifactBucket: settings.artifactBucket };
  return reply(consoleApi.realisedQuality, await endpointRealisedQuality(deps, name, query));
});
