import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { reply, route } from "@/server/http/route.ts";
import { modelPresets } from "@/server/presets/models.ts";

export const GET = route(async (request) => {
  await requireRole(request, "viewer");
  return reply(consoleApi.modelPresets, { presets: [...modelPresets] });
});
