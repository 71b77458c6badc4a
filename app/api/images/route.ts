import { z } from "zod";
import { requireRole } from "@/server/auth/principal.ts";
import { consoleContext } from "@/server/context.ts";
import { route } from "@/server/http/route.ts";
import { listDeployableImages, resolveImageTag } from "@/server/images/images.ts";

const querySchema = z.object({
  tag: z
    .string()
    .regex(/^[\w][\w.-]{0,127}$/, "must be an image tag such as cpu")
    .optional(),
});

/**
 * ImageList: the adapter repository's images by digest, and the DLC tags still to be pinned.
 * With `?tag=cpu`: that one tag resolved to its digest-pinned DeployableImage (404 when the tag is unknown).
 */
export const GET = route(async (request) => {
  await requireRole(request, "viewer");
  const { tag } = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const { aws, settings } = consoleContext();
  if (tag) return Response.json(await resolveImageTag(aws.ecr, settings.adapterRepository, tag));
  return Response.json(await listDeployableImages(aws.ecr, settings.adapterRepository));
});
