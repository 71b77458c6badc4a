import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { consoleContext } from "@/server/context.ts";
import { readQuery, reply, route } from "@/server/http/route.ts";
import { listDeployableImages, resolveImageTag } from "@/server/images/images.ts";

/**
 * ImageList: the adapter repository's and the Region's llama.cpp DLC images by digest, and DLC tags not resolved.
 * With `?tag=cpu`: that one tag resolved to its digest-pinned DeployableImage (404 when the tag is unknown).
 */
export const GET = route(async (request) => {
  await requireRole(request, "viewer");
  const { tag } = readQuery(request, consoleApi.images);
  const { aws, settings } = consoleContext();
  if (tag) return reply(consoleApi.images, await resolveImageTag(aws.ecr, settings.adapterRepository, tag));
  return reply(consoleApi.images, await listDeployableImages(aws.ecr, settings.adapterRepository));
});
