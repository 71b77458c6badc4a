import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { consoleContext } from "@/server/context.ts";
import { describeEndpoint } from "@/server/endpoints/describe.ts";
import { forgetEndpointSettings } from "@/server/endpoints/forget-settings.ts";
import { deleteEndpoint, updateInstanceCount } from "@/server/endpoints/manage.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { readJson, reply, route } from "@/server/http/route.ts";

type Context = { params: Promise<{ name: string }> };

/** EndpointDetail. */
export const GET = route(async (request, { params }: Context) => {
  await requireRole(request, "viewer");
  const name = await endpointNameParam(params);
  const { aws, store } = consoleContext();
  return reply(consoleApi.describeEndpoint, await describeEndpoint(aws, name, store));
});

/** `{instanceCount}`: scale the variant (409 unless InService). */
export const PATCH = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "operator");
  const name = await endpointNameParam(params);
  const { instanceCount } = await readJson(request, consoleApi.scaleEndpoint.body);
  const { aws, store } = consoleContext();
  const result = await audited(
    store,
    { actor: principal.name, action: "endpoint.scale", target: name, detail: { instanceCount } },
    () => updateInstanceCount(aws.sageMaker, name, instanceCount),
  );
  return reply(consoleApi.scaleEndpoint, result);
});

/** Deletes the endpoint, its config and its model, then forgets its settings; 409 while Creating/Updating. */
export const DELETE = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "operator");
  const name = await endpointNameParam(params);
  const { aws, store } = consoleContext();
  const entry = { actor: principal.name, action: "endpoint.delete", target: name };
  const deleted = await audited(store, { ...entry, outcome: ({ settings }) => ({ settings }) }, async () => {
    const resources = await deleteEndpoint(aws, name);
    return { ...resources, settings: await forgetEndpointSettings(store, resources.endpoint) };
  });
  return reply(consoleApi.deleteEndpoint, { deleted });
});
