import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { retryBuild } from "@/server/builds/builds.ts";
import { buildIdParam } from "@/server/builds/route-params.ts";
import { consoleContext } from "@/server/context.ts";
import { reply, route } from "@/server/http/route.ts";

/** The same build again (202, the new build; 409 while this one runs). */
export const POST = route(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const principal = await requireRole(request, "operator");
  const id = await buildIdParam(params);
  const { aws, store, settings } = consoleContext();
  const build = await audited(store, { actor: principal.name, action: "build.retry", target: id }, () =>
    retryBuild(aws.codeBuild, settings, id),
  );
  return reply(consoleApi.retryBuild, build);
});
