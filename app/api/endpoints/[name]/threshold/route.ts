import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { consoleContext } from "@/server/context.ts";
import { existingEndpointName } from "@/server/endpoints/endpoint-name.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { readJson, reply, route } from "@/server/http/route.ts";
import { storeThreshold, thresholdInUse } from "@/server/monitoring/endpoint-threshold.ts";

type Context = { params: Promise<{ name: string }> };

/** The threshold the endpoint's decisions are read against (anyone signed in). */
export const GET = route(async (request, { params }: Context) => {
  await requireRole(request, "viewer");
  const asked = await endpointNameParam(params);
  const { aws, store } = consoleContext();
  const name = await existingEndpointName(aws.sageMaker, asked);
  return reply(consoleApi.endpointThreshold, await thresholdInUse(store, name));
});

/** Stores the decision threshold of an endpoint that exists, under its own spelling (operators; audited). */
export const PUT = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "operator");
  const asked = await endpointNameParam(params);
  const body = await readJson(request, consoleApi.setEndpointThreshold.body);
  const { aws, store } = consoleContext();
  const entry = { actor: principal.name, action: "endpoint.threshold.set", target: asked, detail: body };
  const stored = await audited(store, entry, async () => {
    const name = await existingEndpointName(aws.sageMaker, asked);
    return storeThreshold(store, name, body.threshold, principal.name);
  });
  return reply(consoleApi.setEndpointThreshold, stored);
});
