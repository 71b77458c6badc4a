import { consoleApi } from "@/contract/api.ts";
import { inferenceIdSchema } from "@/contract/invoke/invoke-async.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { consoleContext } from "@/server/context.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { AppError } from "@/server/http/app-error.ts";
import { reply, route } from "@/server/http/route.ts";
import { asyncOutcome } from "@/server/invoke/async-outcome.ts";
import { acceptedAsyncRequest, noteAsyncState } from "@/server/invoke/async-requests.ts";

/**
 * One look at an asynchronous request's outcome, at the locations InvokeEndpointAsync returned for it (recorded when
 * the console sent it), so only a request this console sent to this endpoint is looked up.
 */
export const GET = route(async (request, { params }: { params: Promise<{ name: string; inferenceId: string }> }) => {
  await requireRole(request, "viewer");
  const name = await endpointNameParam(params);
  const { inferenceId } = await params;
  const id = inferenceIdSchema.safeParse(inferenceId);
  if (!id.success) throw new AppError("bad_request", `inferenceId "${inferenceId}": ${id.error.issues[0]?.message}`);
  const { aws, store } = consoleContext();
  const sent = await acceptedAsyncRequest(store, name, id.data);
  if (!sent) {
    throw new AppError(
      "not_found",
      `No asynchronous request "${id.data}" sent by this console to endpoint "${name}" (it may be older than the requests the console keeps).`,
    );
  }
  const seen = await asyncOutcome(aws.s3, sent);
  if (seen.status !== "pending") await noteAsyncState(store, id.data, seen.status);
  return reply(consoleApi.asyncOutcome, seen);
});
