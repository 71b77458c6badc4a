import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { consoleContext } from "@/server/context.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { promoteShadow } from "@/server/endpoints/shadow-test.ts";
import { updateEndpoint } from "@/server/endpoints/update.ts";
import { updateAuditEntry } from "@/server/endpoints/update-audit.ts";
import { readJson, reply, route } from "@/server/http/route.ts";

type Context = { params: Promise<{ name: string }> };

/** Promotes the shadow: the test ends, then the candidate's change runs as a safe update with the given strategy. */
export const POST = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "operator");
  const name = await endpointNameParam(params);
  const body = await readJson(request, consoleApi.promoteShadow.body);
  const { aws, db, scope } = consoleContext();
  const entry = { actor: principal.name, action: "endpoint.shadow-test.promote", target: name, detail: body };
  const { result, task } = await audited(db, entry, () =>
    promoteShadow(aws.sageMaker, db, name, body, {
      startUpdate: (update) =>
        audited(db, updateAuditEntry(principal.name, name, update), () =>
          updateEndpoint(aws, name, update, { resourceNamePrefix: scope.prefix }),
        ),
    }),
  );
  task.catch((error: unknown) =>
    console.error(
      JSON.stringify({ level: "error", msg: "shadow promotion's update not started", error: String(error) }),
    ),
  );
  return reply(consoleApi.promoteShadow, result);
});
