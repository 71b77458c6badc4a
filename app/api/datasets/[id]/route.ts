import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { evaluationDeps } from "@/server/context.ts";
import { deleteDataset } from "@/server/evaluate/datasets/dataset-commands.ts";
import { datasetDetail } from "@/server/evaluate/datasets/dataset-store.ts";
import { tokenBudgetRefusals } from "@/server/evaluate/runs/token-budget-refusals.ts";
import { AppError } from "@/server/http/app-error.ts";
import { reply, route } from "@/server/http/route.ts";

interface Context {
  params: Promise<{ id: string }>;
}

export const GET = route(async (request, { params }: Context) => {
  await requireRole(request, "viewer");
  const { id } = await params;
  const { store } = evaluationDeps();
  const detail = await datasetDetail(store, id);
  if (!detail) throw new AppError("not_found", `There is no dataset ${id}.`);
  return reply(consoleApi.getDataset, { ...detail, tokenBudgetRefusals: await tokenBudgetRefusals(store, id) });
});

export const DELETE = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "operator");
  const { id } = await params;
  const { store } = evaluationDeps();
  await audited(store, { actor: principal.name, action: "dataset.delete", target: id }, () => deleteDataset(store, id));
  return new Response(null, { status: consoleApi.deleteDataset.status });
});
