import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { consoleContext } from "@/server/context.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { readJson, reply, route } from "@/server/http/route.ts";
import { exportLabelsToDataset } from "@/server/monitoring/review-queue.ts";

type Context = { params: Promise<{ name: string }> };

/** A decision kind's labelled decisions as a dataset for the Evaluate page; audited as `endpoint.review.export`. */
export const POST = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "viewer");
  const name = await endpointNameParam(params);
  const body = await readJson(request, consoleApi.exportReview.body);
  const { store } = consoleContext();
  const entry = { actor: principal.name, action: "endpoint.review.export", target: name, detail: body };
  const result = await audited(store, entry, () => exportLabelsToDataset(store, name, body.kind, body.name));
  return reply(consoleApi.exportReview, result);
});
