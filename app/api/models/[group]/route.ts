import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { reply, route } from "@/server/http/route.ts";
import { modelGroup } from "@/server/models/model-versions.ts";
import { registryDeps, versionParams } from "@/server/models/route-context.ts";

/** ModelGroupDetail: a group and its versions, newest first, with what each was evaluated on. */
export const GET = route(async (request, { params }: { params: Promise<{ group: string }> }) => {
  await requireRole(request, "viewer");
  const { group } = await versionParams(params);
  return reply(consoleApi.getModelGroup, await modelGroup(registryDeps(), group));
});
