import { consoleApi } from "@/contract/api.ts";
import { requireManaged } from "@/server/auth/managed-names.ts";
import { requireRole, requireRoleFor } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { consoleContext, evaluationDeps } from "@/server/context.ts";
import { startEvaluation } from "@/server/evaluate/runs/evaluation-commands.ts";
import { evaluationSummaries } from "@/server/evaluate/runs/run-view.ts";
import { readJson, reply, route } from "@/server/http/route.ts";

export const GET = route(async (request) => {
  await requireRole(request, "viewer");
  return reply(consoleApi.listEvaluations, { evaluations: await evaluationSummaries(evaluationDeps().store) });
});

/**
 * Starts an evaluation of a dataset on one or two endpoints (a viewer may), or of a model in a batch transform job,
 * which starts paid instances (an operator only); poll `GET /api/evaluations/[id]` for progress.
 */
export const POST = route(async (request) => {
  const viewer = await requireRole(request, "viewer");
  const input = await readJson(request, consoleApi.startEvaluation.body);
  const principal = input.batch
    ? await requireRoleFor(request, "operator", "An evaluation in a batch transform job starts paid instances")
    : viewer;
  requireManaged(
    [
      ...input.endpoints.map((name) => ({ kind: "sagemaker" as const, name, field: "endpoints" })),
      { kind: "sagemaker", name: input.batch?.modelName, field: "batch.modelName" },
    ],
    consoleContext().scope,
  );
  const deps = evaluationDeps();
  const target = input.batch ? input.batch.modelName : input.endpoints.join(", ");
  const entry = { actor: principal.name, action: "evaluation.start", target, detail: { datasetId: input.datasetId } };
  const started = await audited(deps.store, entry, () => startEvaluation(deps, input, principal.name));
  return reply(consoleApi.startEvaluation, started);
});
