import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { putEndpointAutoscaling } from "@/server/autoscaling/endpoint-autoscaling.ts";
import { describeAutoscaling, removeAutoscaling } from "@/server/autoscaling/variant-scaling.ts";
import { audited } from "@/server/aws/audited.ts";
import { consoleContext } from "@/server/context.ts";
import { variantName } from "@/server/endpoints/deploy.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { readJson, reply, route } from "@/server/http/route.ts";

type Context = { params: Promise<{ name: string }> };

/** `{autoscaling: Autoscaling | null}`. */
export const GET = route(async (request, { params }: Context) => {
  await requireRole(request, "viewer");
  const name = await endpointNameParam(params);
  const { aws } = consoleContext();
  return reply(consoleApi.getAutoscaling, {
    autoscaling: await describeAutoscaling(aws.autoScaling, name, variantName),
  });
});

/**
 * AutoscalingRequest: register the scalable target and put its policies (scale to zero, asynchronous endpoints only:
 * and the wake-up alarm); a step that fails undoes the change.
 */
export const PUT = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "operator");
  const name = await endpointNameParam(params);
  const settings = await readJson(request, consoleApi.putAutoscaling.body);
  const { aws, store } = consoleContext();
  const autoscaling = await audited(
    store,
    { actor: principal.name, action: "endpoint.autoscaling", target: name, detail: settings },
    () => putEndpointAutoscaling(aws, name, variantName, settings),
  );
  return reply(consoleApi.putAutoscaling, { autoscaling });
});

/** Turns autoscaling off: deletes the policies, the target and a wake-up alarm (the instance count stays as it is). */
export const DELETE = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "operator");
  const name = await endpointNameParam(params);
  const { aws, store } = consoleContext();
  await audited(store, { actor: principal.name, action: "endpoint.autoscaling.remove", target: name }, () =>
    removeAutoscaling(aws, name, variantName),
  );
  return reply(consoleApi.deleteAutoscaling, { autoscaling: null });
});
