import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { consoleContext } from "@/server/context.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { readQuery, reply, route } from "@/server/http/route.ts";
import { recentAsyncRequests } from "@/server/invoke/async-requests.ts";

/** The asynchronous requests this console sent to the endpoint, newest first, queued ones refreshed from S3. */
export const GET = route(async (request, { params }: { params: Promise<{ name: string }> }) => {
  await requireRole(request, "viewer");
  const name = await endpointNameParam(params);
  const { limit } = readQuery(request, consoleApi.asyncRequests);
  const { aws, store } = consoleContext();
  return reply(consoleApi.asyncRequests, { requests: await recentAsyncRequests(aws.s3, store, name, limit) });
});
