import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { transformJobNameParam } from "@/server/batch/route-params.ts";
import { stopTransformJob } from "@/server/batch/transform-jobs.ts";
import { consoleContext } from "@/server/context.ts";
import { reply, route } from "@/server/http/route.ts";

/** StopTransformJob (202; 409 once the job has ended). */
export const POST = route(async (request, { params }: { params: Promise<{ name: string }> }) => {
  const principal = await requireRole(request, "operator");
  const name = await transformJobNameParam(params);
  const { aws, store, settings } = consoleContext();
  const stopped = await audited(store, { actor: principal.name, action: "transform-job.stop", target: name }, () =>
    stopTransformJob(aws, settings, name),
  );
  return reply(consoleApi.stopTransformJob, stopped);
});
