import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { consoleContext } from "@/server/context.ts";
import { readJson, reply, route } from "@/server/http/route.ts";
import { decideApproval } from "@/server/models/model-versions.ts";
import { registryDeps, versionParams } from "@/server/models/route-context.ts";

type Context = { params: Promise<{ group: string; version: string }> };

/** ApprovalRequest -> ModelVersion: an operator approves or rejects the version, with a note (audited). */
export const POST = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "operator");
  const { group, version } = await versionParams(params);
  const decision = await readJson(request, consoleApi.decideModelApproval.body);
  const { store } = consoleContext();
  const decided = await audited(
    store,
    {
      actor: principal.name,
      action: decision.status === "Approved" ? "model.approve" : "model.reject",
      target: `${group}/${version}`,
      detail: decision,
    },
    () => decideApproval(registryDeps(), group, version, decision),
  );
  return reply(consoleApi.decideModelApproval, decided);
});
