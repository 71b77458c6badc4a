import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { consoleContext } from "@/server/context.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { endShadowTest, shadowPromotionState, startShadowTest } from "@/server/endpoints/shadow-test.ts";
import { readJson, reply, route } from "@/server/http/route.ts";

type Context = { params: Promise<{ name: string }> };

/** A promotion waiting for its update, and the last one given up in the background with its reason. */
export const GET = route(async (request, { params }: Context) => {
  await requireRole(request, "viewer");
  const name = await endpointNameParam(params);
  const { store } = consoleContext();
  return reply(consoleApi.shadowPromotionState, await shadowPromotionState(store, name));
});

/** Starts a shadow test: the change as a shadow variant on a copy of the endpoint's traffic (409 unless InService). */
export const POST = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "operator");
  const name = await endpointNameParam(params);
  const body = await readJson(request, consoleApi.startShadowTest.body);
  const { aws, store, scope } = consoleContext();
  const entry = { actor: principal.name, action: "endpoint.shadow-test.start", target: name, detail: body };
  const result = await audited(store, entry, () =>
    startShadowTest(aws.sageMaker, store, name, body, { actor: principal.name, resourceNamePrefix: scope.prefix }),
  );
  return reply(consoleApi.startShadowTest, result);
});

/** Ends the shadow test: back to the configuration the endpoint had before it. */
export const DELETE = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "operator");
  const name = await endpointNameParam(params);
  const { aws, store } = consoleContext();
  const entry = { actor: principal.name, action: "endpoint.shadow-test.end", target: name };
  const result = await audited(store, entry, () => endShadowTest(aws.sageMaker, store, name));
  return reply(consoleApi.endShadowTest, result);
});
