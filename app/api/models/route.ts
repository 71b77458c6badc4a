import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { consoleContext } from "@/server/context.ts";
import { readJson, reply, route } from "@/server/http/route.ts";
import { listModelGroups, registerVersion } from "@/server/models/model-versions.ts";
import { registryDeps } from "@/server/models/route-context.ts";

/** ModelGroupList: the Model Registry's groups this console manages. */
export const GET = route(async (request) => {
  await requireRole(request, "viewer");
  const deps = registryDeps();
  return reply(consoleApi.listModelGroups, { groups: await listModelGroups(deps.sageMaker, deps.prefix) });
});

/** RegisterVersion -> ModelVersion (201): a model build's artifact and an image as a new, pending version. */
export const POST = route(async (request) => {
  const principal = await requireRole(request, "operator");
  const register = await readJson(request, consoleApi.registerModelVersion.body);
  const { store } = consoleContext();
  const version = await audited(
    store,
    {
      actor: principal.name,
      action: "model.register",
      target: register.group,
      detail: register,
      outcome: (registered) => ({ request: register, arn: registered.arn }),
    },
    () => registerVersion(registryDeps(), register),
  );
  return reply(consoleApi.registerModelVersion, version);
});
