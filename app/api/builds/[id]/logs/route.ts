import { z } from "zod";
import { requireRole } from "@/server/auth/principal.ts";
import { tailBuildLogs } from "@/server/builds/build-logs.ts";
import { getBuild } from "@/server/builds/builds.ts";
import { buildIdParam } from "@/server/builds/route-params.ts";
import { consoleContext } from "@/server/context.ts";
import { route } from "@/server/http/route.ts";

const querySchema = z.object({ after: z.string().min(1).max(2048).optional() });

/** BuildLogs: the last lines, or with `?after=<nextToken>` only the newer ones. */
export const GET = route(async (request, { params }: { params: Promise<{ id: string }> }) => {
  await requireRole(request, "viewer");
  const id = await buildIdParam(params);
  const { after } = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const { aws, settings } = consoleContext();
  const build = await getBuild(aws.codeBuild, settings, id);
  return Response.json(await tailBuildLogs(aws.logs, build, after ?? null));
});
