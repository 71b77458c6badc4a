import { consoleApi } from "@/contract/api.ts";
import { requireManaged } from "@/server/auth/managed-names.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { listTransformJobs, startTransformJob } from "@/server/batch/transform-jobs.ts";
import { consoleContext } from "@/server/context.ts";
import { readJson, reply, route } from "@/server/http/route.ts";

/** TransformJobList: the console's batch transform jobs, newest first. */
export const GET = route(async (request) => {
  await requireRole(request, "viewer");
  const { aws, settings } = consoleContext();
  return reply(consoleApi.listTransformJobs, { jobs: await listTransformJobs(aws, settings) });
});

/** StartTransformJobRequest -> TransformJobSummary (202): CreateTransformJob on a deployed model or a build output. */
export const POST = route(async (request) => {
  const principal = await requireRole(request, "operator");
  const start = await readJson(request, consoleApi.startTransformJob.body);
  requireManaged(
    [
      { kind: "sagemaker", name: start.modelName, field: "modelName" },
      { kind: "build", name: start.buildOutput?.buildId, field: "buildOutput.buildId" },
    ],
    consoleContext().scope,
  );
  const { aws, store, settings } = consoleContext();
  const job = await audited(
    store,
    { actor: principal.name, action: "transform-job.start", target: start.name, detail: start },
    () => startTransformJob(aws, settings, start),
  );
  return reply(consoleApi.startTransformJob, job);
});
