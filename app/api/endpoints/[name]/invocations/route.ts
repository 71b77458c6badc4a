import { z } from "zod";
import type { InvocationList } from "@/contract/invoke/invoke.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { consoleContext } from "@/server/context.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { route } from "@/server/http/route.ts";
import { recentInvocations } from "@/server/invoke/invocation-log.ts";

const querySchema = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });

/** Invocations made from this console (playground), newest first. */
export const GET = route(async (request, { params }: { params: Promise<{ name: string }> }) => {
  await requireRole(request, "viewer");
  const name = await endpointNameParam(params);
  const { limit } = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const body: InvocationList = { invocations: recentInvocations(consoleContext().db, name, limit) };
  return Response.json(body);
});
