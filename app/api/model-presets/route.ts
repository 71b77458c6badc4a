import type { ModelPresetList } from "@/contract/builds/model-presets.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { route } from "@/server/http/route.ts";
import { modelPresets } from "@/server/presets/models.ts";

export const GET = route(async (request) => {
  await requireRole(request, "viewer");
  const body: ModelPresetList = { presets: [...modelPresets] };
  return Response.json(body);
});
