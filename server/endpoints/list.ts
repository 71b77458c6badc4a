import {
  ListEndpointsCommand,
  type SageMakerClient,
  type EndpointSummary as SdkEndpointSummary,
} from "@aws-sdk/client-sagemaker";
import type { EndpointList, EndpointSummary } from "../../contract/endpoints/endpoint.ts";
import type { EndpointStatus } from "../../contract/endpoints/status.ts";
import { pricesAsOf } from "../../contract/pricing/prices.ts";
import { awsCall, toAwsAppError } from "../aws/errors.ts";
import { loadEndpointResources } from "./resources.ts";
import { COST_WINDOW_HOURS } from "./served-cost.ts";
import { EndpointSummaryCache } from "./summary-cache.ts";
import { summaryOf } from "./view.ts";

/** Every endpoint, following NextToken through all pages. */
export async function listAllEndpointEntries(sageMaker: SageMakerClient): Promise<SdkEndpointSummary[]> {
  const entries: SdkEndpointSummary[] = [];
  let nextToken: string | undefined;
  do {
    const page = await awsCall("endpoint list", () =>
      sageMaker.send(
        new ListEndpointsCommand({
          MaxResults: 100,
          NextToken: nextToken,
          SortBy: "CreationTime",
          SortOrder: "Descending",
        }),
      ),
    );
    entries.push(...(page.Endpoints ?? []));
    nextToken = page.NextToken;
  } while (nextToken);
  return entries;
}

/**
 * Whether the console's IAM policy lets it describe and change the endpoint: it allows `endpoint/<prefix>*`, matched
 * against the ARN, in which SageMaker lower-cases the name. No prefix configured: every endpoint.
 */
function coveredByPolicy(name: string, prefix: string | null): boolean {
  return prefix === null || name.toLowerCase().startsWith(prefix);
}

/**
 * What the table shows from the listing alone: an endpoint that vanished between the list and its describe calls
 * (managed), or one the console's policy does not let it describe (not managed).
 */
function fromListingOnly(entry: SdkEndpointSummary, managed: boolean): EndpointSummary {
  return {
    name: entry.EndpointName ?? "",
    arn: entry.EndpointArn ?? "",
    status: (entry.EndpointStatus ?? "OutOfService") as EndpointStatus,
    apiMode: "decision",
    instanceType: null,
    instanceCount: null,
    usedFallbackPool: false,
    imageDigest: null,
    modelSha256: null,
    createdAt: (entry.CreationTime ?? new Date(0)).toISOString(),
    lastModifiedAt: (entry.LastModifiedTime ?? new Date(0)).toISOString(),
    hourlyPriceUsd: null,
    variantName: null,
    costPerThousandUsd: null,
    failureReason: null,
    managed,
  };
}

async function mapBounded<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  });
  await Promise.all(workers);
  return results;
}

/**
 * Every endpoint in the account (ListEndpoints is allowed on `*`), each described when the console's policy covers
 * it (`resourceNamePrefix`, CONSOLE_RESOURCE_PREFIX); the others, and any SageMaker refuses to describe anyway, are
 * listed as not managed, so one endpoint outside the policy never fails the whole list.
 */
export async function listEndpoints(
  sageMaker: SageMakerClient,
  cache: EndpointSummaryCache = new EndpointSummaryCache(),
  resourceNamePrefix: string | null = null,
  concurrency = 8,
): Promise<EndpointList> {
  const entries = await listAllEndpointEntries(sageMaker);
  const endpoints = await mapBounded(entries, concurrency, async (entry) => {
    if (!coveredByPolicy(entry.EndpointName ?? "", resourceNamePrefix)) return fromListingOnly(entry, false);
    const cached = await cache.summary(entry);
    if (cached) return cached;
    try {
      const summary = summaryOf(await loadEndpointResources(sageMaker, entry.EndpointName ?? "", cache));
      await cache.storeSummary(entry, summary);
      return summary;
    } catch (error) {
      const mapped = toAwsAppError(error);
      if (mapped.status === 404) return fromListingOnly(entry, true);
      if (mapped.details?.awsError === "AccessDeniedException") return fromListingOnly(entry, false);
      throw error;
    }
  });
  await cache.retain(new Set(entries.map((entry) => entry.EndpointName ?? "")));
  return { endpoints, pricesAsOf, costWindowHours: COST_WINDOW_HOURS };
}
