import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { evaluationDeps } from "@/server/context.ts";
import { exportCsv, exportJson } from "@/server/evaluate/runs/export.ts";
import { evaluationDetail, runData } from "@/server/evaluate/runs/run-view.ts";
import { AppError } from "@/server/http/app-error.ts";
import { readQuery, route } from "@/server/http/route.ts";

interface Context {
  params: Promise<{ id: string }>;
}

/** The run's per-item results as a download: `?format=csv` (one row per endpoint and item) or `json`. */
export const GET = route(async (request, { params }: Context) => {
  await requireRole(request, "viewer");
  const { id } = await params;
  const { format } = readQuery(request, consoleApi.exportEvaluation);
  const { store } = evaluationDeps();
  const data = await runData(store, id);
  const detail = await evaluationDetail(store, id);
  if (!data || !detail) throw new AppError("not_found", `There is no evaluation ${id}.`);
  const fileName = `evaluation-${id.slice(0, 8)}.${format}`;
  const headers = {
    "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/json",
    "content-disposition": `attachment; filename="${fileName}"`,
  };
  return new Response(format === "csv" ? exportCsv(data) : exportJson(detail, data), { headers });
});
