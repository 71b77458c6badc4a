import { z } from "zod";
import { listAudit } from "@/server/audit/record.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { route } from "@/server/http/route.ts";

const querySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  before: z.coerce.number().int().positive().optional(),
  actor: z.string().max(200).optional(),
  action: z.string().max(100).optional(),
});

/** The audit log, newest first; `before` (the last id of a page) fetches the next page. */
export const GET = route(async (request) => {
  await requireRole(request, "operator");
  const query = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const records = listAudit({ limit: query.limit, beforeId: query.before, actor: query.actor, action: query.action });
  const last = records.at(-1);
  return Response.json({ records, nextBefore: records.length === query.limit && last ? last.id : null });
});
