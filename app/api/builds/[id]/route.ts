import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { getBuild } from "@/server/builds/builds.ts";
import { buildIdParam } from "@/server/builds/route-params.ts";
import { consoleContext } from "@/server/context.ts";
import { reply, route } from "@/server/http/route.ts";

/** Build: phases, status, outputs. */
export const GET = route(async (request, { params }: { params: Promise<{ id: string }> }) => {
  await requireRole(request, "viewer");
  const id = await buildIdParam(params);
  const { aws, settings } = consoleContext();
  return reply(consoleApi.getBuild, await getBuild(aws.codeBuild, settings, id));
});
