import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { consoleContext } from "@/server/context.ts";
import { existingEndpointName } from "@/server/endpoints/endpoint-name.ts";
import { chooseEvaluation } from "@/server/endpoints/evaluation-link.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { readJson, reply, route } from "@/server/http/route.ts";

type Context = { params: Promise<{ name: string }> };

/** Production compared with a run of the endpoint from now on, under the endpoint's own spelling (operators; audited). */
export const POST = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "operator");
  const asked = await endpointNameParam(params);
  const body = await readJson(request, consoleApi.chooseEvaluation.body);
  const { aws, store } = consoleContext();
  const entry = { actor: principal.name, action: "endpoint.evaluation.choose", target: asked, detail: body };
  const link = await audited(store, entry, async () => {
    const name = await existingEndpointName(aws.sageMaker, asked);
    return chooseEvaluation(store, name, body.runId, principal.name);
  });
  return reply(consoleApi.chooseEvaluation, link);
});
