import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { consoleContext } from "@/server/context.ts";
import { abortUpdate } from "@/server/endpoints/abort-update.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { reply, route } from "@/server/http/route.ts";

type Context = { params: Promise<{ name: string }> };

/** Abort and roll back the update in progress (409 when none runs or it watches no rollback alarm). */
export const POST = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "operator");
  const name = await endpointNameParam(params);
  const { aws, store } = consoleContext();
  const aborted = await audited(
    store,
    { actor: principal.name, action: "endpoint.update.abort", target: name, outcome: (result) => result },
    () => abortUpdate(aws, name, principal.name),
  );
  return reply(consoleApi.abortUpdate, aborted);
});
