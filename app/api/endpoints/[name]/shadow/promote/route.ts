import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { consoleContext } from "@/server/context.ts";
import { takeUpPromotion } from "@/server/endpoints/promotion-resume.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { promoteShadow } from "@/server/endpoints/shadow-test.ts";
import { readJson, reply, route } from "@/server/http/route.ts";

type Context = { params: Promise<{ name: string }> };

/**
 * Promotes the shadow: the test ends and the promotion is stored; once the endpoint is InService again the
 * candidate's change runs as a safe update with the given strategy, by this console process or, if it stops, by
 * whichever replica takes the promotion up (server/background/).
 */
export const POST = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "operator");
  const name = await endpointNameParam(params);
  const body = await readJson(request, consoleApi.promoteShadow.body);
  const context = consoleContext();
  const { aws, store } = context;
  const entry = { actor: principal.name, action: "endpoint.shadow-test.promote", target: name, detail: body };
  const result = await audited(store, entry, () =>
    promoteShadow(aws.sageMaker, store, name, body, { actor: principal.name }),
  );
  void takeUpPromotion(context, name, { lease: { ttlMs: context.config.CONSOLE_LEASE_SECONDS * 1000 } });
  return reply(consoleApi.promoteShadow, result);
});
