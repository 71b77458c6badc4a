import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { consoleContext } from "@/server/context.ts";
import { reply, route } from "@/server/http/route.ts";

/** ConsoleSettingsView: mode, region and the resource-name prefix the console's IAM policy allows. */
export const GET = route(async (request) => {
  await requireRole(request, "viewer");
  const { mode, region, resourceNamePrefix } = consoleContext().settings;
  return reply(consoleApi.consoleSettings, { mode, region, resourceNamePrefix });
});
