import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { reply, route } from "@/server/http/route.ts";
import { modelVersion } from "@/server/models/model-versions.ts";
import { registryDeps, versionParams } from "@/server/models/route-context.ts";
import { endpointsServing } from "@/server/models/version-lineage.ts";

type Context = { params: Promise<{ group: string; version: string }> };

/** ModelVersionDetail: one version, its lineage (builds, source, pins, evaluation) and the endpoints serving it. */
export const GET = route(async (request, { params }: Context) => {
  await requireRole(request, "viewer");
  const { group, version } = await versionParams(params);
  const deps = registryDeps();
  const found = await modelVersion(deps, group, version);
  const endpoints = await endpointsServing(deps.sageMaker, found.arn, deps.prefix, deps.endpointSummaries);
  return reply(consoleApi.getModelVersion, { ...found, endpoints });
});
