import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { evaluationDeps } from "@/server/context.ts";
import { retryFailedItems } from "@/server/evaluate/runs/evaluation-commands.ts";
import { evaluationDetail } from "@/server/evaluate/runs/run-view.ts";
import { AppError } from "@/server/http/app-error.ts";
import { reply, route } from "@/server/http/route.ts";

interface Context {
  params: Promise<{ id: string }>;
}

/** Asks the items of an ended run that got no answer again; every answer it has is kept. */
export const POST = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "viewer");
  const { id } = await params;
  const deps = evaluationDeps();
  await audited(deps.store, { actor: principal.name, action: "evaluation.retry-failed", target: id }, () =>
    retryFailedItems(deps, id),
  );
  const detail = await evaluationDetail(deps.store, id);
  if (!detail) throw new AppError("not_found", `There is no evaluation ${id}.`);
  return reply(consoleApi.retryFailedEvaluationItems, detail);
});
