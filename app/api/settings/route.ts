import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { consoleContext } from "@/server/context.ts";
import { readFirstRunLimits } from "@/server/first-run/first-run-limits.ts";
import { reply, route } from "@/server/http/route.ts";
import { resolveDataDir } from "@/server/store/database.ts";

/** ConsoleSettingsView: mode, region, the resource-name prefix the console's IAM policy allows, the first run's limits. */
export const GET = route(async (request) => {
  await requireRole(request, "viewer");
  const { settings, config } = consoleContext();
  const { mode, region, resourceNamePrefix } = settings;
  const firstRunLimits = readFirstRunLimits(resolveDataDir(config));
  return reply(consoleApi.consoleSettings, { mode, region, resourceNamePrefix, firstRunLimits });
});
