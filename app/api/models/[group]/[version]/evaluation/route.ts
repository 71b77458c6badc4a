import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { consoleContext } from "@/server/context.ts";
import { readJson, reply, route } from "@/server/http/route.ts";
import { attachEvaluation } from "@/server/models/model-versions.ts";
import { registryDeps, versionParams } from "@/server/models/route-context.ts";

type Context = { params: Promise<{ group: string; version: string }> };

/** AttachEvaluation -> ModelVersion: a completed run of this version's image and artifact, its report in S3 (audited). */
export const POST = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "operator");
  const { group, version } = await versionParams(params);
  const attach = await readJson(request, consoleApi.attachModelEvaluation.body);
  const { store } = consoleContext();
  const attached = await audited(
    store,
    { actor: principal.name, action: "model.attach-evaluation", target: `${group}/${version}`, detail: attach },
    () => attachEvaluation(registryDeps(), group, version, attach.evaluationId),
  );
  return reply(consoleApi.attachModelEvaluation, attached);
});
