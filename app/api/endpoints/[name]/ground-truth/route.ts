import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { consoleContext } from "@/server/context.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { readJson, reply, route } from "@/server/http/route.ts";
import { recordLabelBatch } from "@/server/monitoring/ground-truth.ts";

type Context = { params: Promise<{ name: string }> };

/**
 * A batch of labels by inference id; audited as `endpoint.ground-truth.record`. Viewers may, as they may label in the
 * review queue: labels are evaluation work and change no AWS resource.
 */
export const POST = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "viewer");
  const name = await endpointNameParam(params);
  const batch = await readJson(request, consoleApi.recordGroundTruth.body);
  const { aws, store, settings } = consoleContext();
  const deps = { s3: aws.s3, sageMaker: aws.sageMaker, store, artifactBucket: settings.artifactBucket };
  const entry = {
    actor: principal.name,
    action: "endpoint.ground-truth.record",
    target: name,
    detail: { labels: batch.labels.length },
  };
  const result = await audited(store, entry, () => recordLabelBatch(deps, name, batch, principal.name));
  return reply(consoleApi.recordGroundTruth, result);
});
