import { consoleApi } from "@/contract/api.ts";
import { requireManaged } from "@/server/auth/managed-names.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { consoleContext } from "@/server/context.ts";
import { auditAlarmRollback } from "@/server/endpoints/rollback-watch.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { updateEndpoint } from "@/server/endpoints/update.ts";
import { updateAuditEntry as auditEntry } from "@/server/endpoints/update-audit.ts";
import { readJson, reply, route } from "@/server/http/route.ts";

type Context = { params: Promise<{ name: string }> };

/** Update the endpoint in place with traffic shifting and rollback alarms (409 unless InService). */
export const POST = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "operator");
  const name = await endpointNameParam(params);
  const update = await readJson(request, consoleApi.updateEndpoint.body);
  const { aws, store, scope, config } = consoleContext();
  requireManaged([{ kind: "sagemaker", name: update.rollBackTo, field: "rollBackTo" }], scope);
  const startedAt = new Date();
  const result = await audited(store, auditEntry(principal.name, name, update), () =>
    updateEndpoint({ ...aws, store }, name, update, {
      resourceNamePrefix: scope.prefix,
      lease: { ttlMs: config.CONSOLE_LEASE_SECONDS * 1000 },
      linkedBy: { why: "updated", by: principal.name },
    }),
  );
  if (update.rollBackTo === undefined && result.alarms.length > 0) {
    // SageMaker rolls back on an alarm by itself: the console watches the update to audit that roll back.
    auditAlarmRollback(aws, store, { result, startedAt, actor: principal.name }).catch((error: unknown) =>
      console.error(JSON.stringify({ level: "error", msg: "alarm roll back not audited", error: String(error) })),
    );
  }
  return reply(consoleApi.updateEndpoint, result);
});
