import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { transformJobNameParam } from "@/server/batch/route-params.ts";
import { describeTransformJob } from "@/server/batch/transform-jobs.ts";
import { consoleContext } from "@/server/context.ts";
import { reply, route } from "@/server/http/route.ts";

/** TransformJobDetail: definition, status, failure reason, outputs so far, cost estimate, logs. */
export const GET = route(async (request, { params }: { params: Promise<{ name: string }> }) => {
  await requireRole(request, "viewer");
  const name = await transformJobNameParam(params);
  const { aws, settings } = consoleContext();
  return reply(consoleApi.describeTransformJob, await describeTransformJob(aws, settings, name));
});
