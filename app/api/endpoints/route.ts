import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { consoleContext } from "@/server/context.ts";
import { deployEndpoint } from "@/server/endpoints/deploy.ts";
import { listEndpoints } from "@/server/endpoints/list.ts";
import { withServedCost } from "@/server/endpoints/served-cost.ts";
import { readJson, reply, route } from "@/server/http/route.ts";

/**
 * Every endpoint (all pages of ListEndpoints) as EndpointList, with its cost per 1,000 decisions over the last day;
 * those outside the console's prefix unmanaged.
 */
export const GET = route(async (request) => {
  await requireRole(request, "viewer");
  const { aws, endpointSummaries, settings } = consoleContext();
  return reply(
    consoleApi.listEndpoints,
    await withServedCost(
      aws.cloudWatch,
      await listEndpoints(aws.sageMaker, endpointSummaries, settings.resourceNamePrefix),
    ),
  );
});

/** Deploy: DeployRequest in, DeployResult out (202: the endpoint is Creating). */
export const POST = route(async (request) => {
  const principal = await requireRole(request, "operator");
  const deploy = await readJson(request, consoleApi.deploy.body);
  const { aws, store, settings } = consoleContext();
  const result = await audited(
    store,
    { actor: principal.name, action: "endpoint.deploy", target: deploy.name, detail: deploy },
    () =>
      deployEndpoint(aws.sageMaker, deploy, {
        defaultExecutionRoleArn: settings.executionRoleArn,
        resourceNamePrefix: settings.resourceNamePrefix,
        artifactBucket: settings.artifactBucket,
        evaluationLink: { store, by: principal.name },
      }),
  );
  return reply(consoleApi.deploy, result);
});
