import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { consoleContext } from "@/server/context.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { readQuery, reply, route } from "@/server/http/route.ts";
import { reviewQueue } from "@/server/monitoring/review-queue.ts";

/** The unlabelled production decisions to label next, with their state, and the labels given so far. */
export const GET = route(async (request, { params }: { params: Promise<{ name: string }> }) => {
  await requireRole(request, "viewer");
  const name = await endpointNameParam(params);
  const query = readQuery(request, consoleApi.reviewQueue);
  const { aws, store, settings } = consoleContext();
  const deps = { s3: aws.s3, sageMaker: aws.sageMaker, store, artifactBucket: settings.artifactBucket };
  return reply(consoleApi.reviewQueue, await reviewQueue(deps, name, query));
});
