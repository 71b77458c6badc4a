import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { consoleContext } from "@/server/context.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { readJson, reply, route } from "@/server/http/route.ts";
import { importGroundTruth } from "@/server/monitoring/ground-truth.ts";

type Context = { params: Promise<{ name: string }> };

/** Reads SageMaker Model Monitor's ground-truth files under a prefix; audited as `endpoint.ground-truth.import`. */
export const POST = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "viewer");
  const name = await endpointNameParam(params);
  const body = await readJson(request, consoleApi.importGroundTruth.body);
  const { aws, store, settings } = consoleContext();
  const deps = { s3: aws.s3, sageMaker: aws.sageMaker, store, artifactBucket: settings.artifactBucket };
  const entry = { actor: principal.name, action: "endpoint.ground-truth.import", target: name, detail: body };
  const result = await audited(store, entry, () => importGroundTruth(deps, name, body));
  return reply(consoleApi.importGroundTruth, result);
});
