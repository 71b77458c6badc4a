import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { consoleContext } from "@/server/context.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { endShadowTest, startShadowTest } from "@/server/endpoints/shadow-test.ts";
import { readJson, reply, route } from "@/server/http/route.ts";

type Context = { params: Promise<{ name: string }> };

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
