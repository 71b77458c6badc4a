import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { evaluationDeps } from "@/server/context.ts";
import { deleteEvaluation } from "@/server/evaluate/runs/evaluation-commands.ts";
import { compareEvaluations, evaluationDetail } from "@/server/evaluate/runs/run-view.ts";
import { AppError } from "@/server/http/app-error.ts";
import { readQuery, reply, route } from "@/server/http/route.ts";

interface Context {
  params: Promise<{ id: string }>;
}

/** Progress and metrics; `?compareWith=<id>` compares with another run on the same dataset. */
export const GET = route(async (request, { params }: Context) => {
  await requireRole(request, "viewer");
  const { id } = await params;
  const query = readQuery(request, consoleApi.getEvaluation);
  const { store } = evaluationDeps();
  const detail = await evaluationDetail(store, id);
  if (!detail) throw new AppError("not_found", `There is no evaluation ${id}.`);
  if (!query.compareWith) return reply(consoleApi.getEvaluation, { ...detail, comparedWith: null });
  const comparison = await compareEvaluations(store, id, query.compareWith);
  if (comparison === "not_found") throw new AppError("not_found", `There is no evaluation ${query.compareWith}.`);
  if (comparison === "other_dataset") {
    throw new AppError(
      "bad_request",
      "compareWith: that evaluation ran on another dataset; compare runs of one dataset.",
    );
  }
  return reply(consoleApi.getEvaluation, { ...detail, comparison, comparedWith: query.compareWith });
});

export const DELETE = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "operator");
  const { id } = await params;
  const deps = evaluationDeps();
  await audited(deps.store, { actor: principal.name, action: "evaluation.delete", target: id }, () =>
    deleteEvaluation(deps, id),
  );
  return new Response(null, { status: consoleApi.deleteEvaluation.status });
});
