import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { tailBuildLogs } from "@/server/builds/build-logs.ts";
import { getBuild } from "@/server/builds/builds.ts";
import { buildIdParam } from "@/server/builds/route-params.ts";
import { consoleContext } from "@/server/context.ts";
import { readQuery, reply, route } from "@/server/http/route.ts";

/** BuildLogs: the last lines, or with `?after=<nextToken>` only the newer ones. */
export const GET = route(async (request, { params }: { params: Promise<{ id: string }> }) => {
  await requireRole(request, "viewer");
  const id = await buildIdParam(params);
  const { after } = readQuery(request, consoleApi.buildLogs);
  const { aws, settings } = consoleContext();
  const build = await getBuild(aws.codeBuild, settings, id);
  return reply(consoleApi.buildLogs, await tailBuildLogs(aws.logs, build, after ?? null));
});
