import type { SageMakerClient } from "@aws-sdk/client-sagemaker";
import { isManagedName } from "../auth/managed-names.ts";
import { listAllEndpointEntries } from "../endpoints/list.ts";
import { loadEndpointResources } from "../endpoints/resources.ts";
import type { EndpointSummaryCache } from "../endpoints/summary-cache.ts";

/**
 * The managed endpoints whose model was created from the version (its container names the version's ARN as
 * ModelPackageName). An endpoint that cannot be described (being deleted) is left out.
 */
export async function endpointsServing(
  sageMaker: SageMakerClient,
  versionArn: string,
  prefix: string | null,
  cache?: EndpointSummaryCache,
): Promise<string[]> {
  const names = (await listAllEndpointEntries(sageMaker))
    .map((entry) => entry.EndpointName ?? "")
    .filter((name) => name && isManagedName(name, prefix));
  const serving = await Promise.all(
    names.map(async (name) => {
      try {
        const { model } = await loadEndpointResources(sageMaker, name, cache);
        const container = model?.PrimaryContainer ?? model?.Containers?.[0];
        return container?.ModelPackageName === versionArn ? name : null;
      } catch {
        return null;
      }
    }),
  );
  return serving.filter((name): name is string => name !== null).sort();
}
