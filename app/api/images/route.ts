import { requireRole } from "@/server/auth/principal.ts";
import { consoleContext } from "@/server/context.ts";
import { route } from "@/server/http/route.ts";
import { listDeployableImages } from "@/server/images/images.ts";

/** ImageList: the adapter repository's images by digest, and the DLC tags still to be pinned. */
export const GET = route(async (request) => {
  await requireRole(request, "viewer");
  const { aws, settings } = consoleContext();
  return Response.json(await listDeployableImages(aws.ecr, settings.adapterRepository));
});
