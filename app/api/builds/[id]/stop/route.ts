import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { stopBuild } from "@/server/builds/builds.ts";
import { buildIdParam } from "@/server/builds/route-params.ts";
import { consoleContext } from "@/server/context.ts";
import { reply, route } from "@/server/http/route.ts";

/** StopBuild (202, the build as CodeBuild answers it). */
export const POST = route(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const principal = await requireRole(request, "operator");
  const id = await buildIdParam(params);
  const { aws, store, settings } = consoleContext();
  const build = await audited(store, { actor: principal.name, action: "build.stop", target: id }, () =>
    stopBuild(aws.codeBuild, settings, id),
  );
  return reply(consoleApi.stopBuild, build);
});
