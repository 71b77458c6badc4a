import { consoleApi } from "@/contract/api.ts";
import { inferenceIdSchema } from "@/contract/invoke/invoke-async.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { consoleContext } from "@/server/context.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { AppError } from "@/server/http/app-error.ts";
import { reply, route } from "@/server/http/route.ts";
import { noteAsyncState } from "@/server/invoke/async-requests.ts";
import { asyncOutcome, asyncResultLocations } from "@/server/invoke/invoke-async.ts";

/** One look at an asynchronous request's outcome, at the locations the endpoint's own configuration names. */
export const GET = route(async (request, { params }: { params: Promise<{ name: string; inferenceId: string }> }) => {
  await requireRole(request, "viewer");
  const name = await endpointNameParam(params);
  const { inferenceId } = await params;
  const id = inferenceIdSchema.safeParse(inferenceId);
  if (!id.success) throw new AppError("bad_request", `inferenceId "${inferenceId}": ${id.error.issues[0]?.message}`);
  const { aws, db } = consoleContext();
  const locations = await asyncResultLocations(aws.sageMaker, name, id.data);
  const seen = await asyncOutcome(aws.s3, locations);
  if (seen.status !== "pending") noteAsyncState(db, id.data, seen.status);
  return reply(consoleApi.asyncOutcome, seen);
});
