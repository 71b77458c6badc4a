import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { consoleContext } from "@/server/context.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { readJson, reply, route } from "@/server/http/route.ts";
import { labelDecision } from "@/server/monitoring/review-queue.ts";

type Context = { params: Promise<{ name: string }> };

/**
 * Labels one captured production decision (or skips it); audited as `endpoint.review.label`. Viewers may, as they
 * may upload datasets and run evaluations: labelling is evaluation work and changes no AWS resource.
 */
export const POST = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "viewer");
  const name = await endpointNameParam(params);
  const body = await readJson(request, consoleApi.labelDecision.body);
  const { aws, store, settings } = consoleContext();
  const deps = { s3: aws.s3, sageMaker: aws.sageMaker, store, artifactBucket: settings.artifactBucket };
  const entry = { actor: principal.name, action: "endpoint.review.label", target: name, detail: body };
  const label = await audited(store, entry, () => labelDecision(deps, name, body, principal.name));
  return reply(consoleApi.labelDecision, label);
});
