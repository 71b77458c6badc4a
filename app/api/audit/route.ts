import { consoleApi } from "@/contract/api.ts";
import { listAudit } from "@/server/audit/record.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { readQuery, reply, route } from "@/server/http/route.ts";

/** The audit log, newest first; `before` (the last id of a page) fetches the next page. */
export const GET = route(async (request) => {
  await requireRole(request, "operator");
  const query = readQuery(request, consoleApi.audit);
  const records = await listAudit({
    limit: query.limit,
    beforeId: query.before,
    actor: query.actor,
    action: query.action,
  });
  const last = records.at(-1);
  return reply(consoleApi.audit, { records, nextBefore: records.length === query.limit && last ? last.id : null });
});
