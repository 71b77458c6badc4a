import type { ProductionVariantSummary } from "@aws-sdk/client-sagemaker";
import type { EndpointSummary, InstancePoolDetail, VariantDetail } from "../../contract/endpoints/endpoint.ts";
import type { EndpointStatus } from "../../contract/endpoints/status.ts";
import { priceForInstances } from "../../contract/pricing/prices.ts";
import { apiModeOf, modelSha256Of } from "./container-env.ts";
import type { EndpointResources } from "./resources.ts";

function iso(date: Date | undefined): string {
  return (date ?? new Date(0)).toISOString();
}

export function environmentOf(resources: EndpointResources): Record<string, string> {
  const container = resources.model?.PrimaryContainer ?? resources.model?.Containers?.[0];
  return { ...(container?.Environment ?? {}) };
}

/** Where a container's model data is: its ModelDataUrl (a model.tar.gz), else its uncompressed S3 prefix. */
export function modelDataUrlOf(
  container: { ModelDataUrl?: string; ModelDataSource?: { S3DataSource?: { S3Uri?: string } } } | undefined,
): string | null {
  return container?.ModelDataUrl ?? container?.ModelDataSource?.S3DataSource?.S3Uri ?? null;
}

export function imageOf(resources: EndpointResources): string | null {
  const container = resources.model?.PrimaryContainer ?? resources.model?.Containers?.[0];
  return container?.Image ?? null;
}

export function digestOf(image: string | null | undefined): string | null {
  const match = image?.match(/@(sha256:[0-9a-f]{64})$/);
  return match?.[1] ?? null;
}

/** Running variants when SageMaker reports them, else the pending deployment's (during Creating). */
function runningVariants(resources: EndpointResources): ProductionVariantSummary[] {
  const { endpoint } = resources;
  if (endpoint.ProductionVariants?.length) return endpoint.ProductionVariants;
  return (endpoint.PendingDeploymentSummary?.ProductionVariants ?? []) as ProductionVariantSummary[];
}

export function variantDetails(resources: EndpointResources): VariantDetail[] {
  const running = runningVariants(resources);
  const configured = resources.config?.ProductionVariants ?? [];
  const names = [
    ...new Set([...configured.map((v) => v.VariantName ?? ""), ...running.map((v) => v.VariantName ?? "")]),
  ];
  return names.map((name) => {
    const config = configured.find((v) => v.VariantName === name);
    const live = running.find((v) => v.VariantName === name);
    const poolsByPriority = [...(config?.InstancePools ?? [])].sort((a, b) => (a.Priority ?? 0) - (b.Priority ?? 0));
    const firstPriority = poolsByPriority[0]?.Priority ?? 1;
    const pools: InstancePoolDetail[] = poolsByPriority.map((pool) => {
      const count = live?.InstancePools?.find((p) => p.InstanceType === pool.InstanceType)?.CurrentInstanceCount;
      return {
        priority: pool.Priority ?? 0,
        instanceType: pool.InstanceType ?? "",
        currentInstanceCount: count ?? null,
        isFallback: (count ?? 0) > 0 && (pool.Priority ?? 0) !== firstPriority,
      };
    });
    return {
      name,
      instanceType: config?.InstanceType ?? null,
      pools,
      desiredInstanceCount: live?.DesiredInstanceCount ?? config?.InitialInstanceCount ?? null,
      currentInstanceCount: live?.CurrentInstanceCount ?? null,
      provisioningTimeoutSeconds: config?.VariantInstanceProvisionTimeoutInSeconds ?? null,
      startupTimeoutSeconds: config?.ContainerStartupHealthCheckTimeoutInSeconds ?? null,
      downloadTimeoutSeconds: config?.ModelDataDownloadTimeoutInSeconds ?? null,
      resolvedImage: live?.DeployedImages?.[0]?.ResolvedImage ?? null,
      statusMessages: (live?.VariantStatus ?? []).map((s) => ({
        status: s.Status ?? "",
        message: s.StatusMessage ?? null,
      })),
    };
  });
}

/** The serving instance type: the CPU type, or the pool with instances (the first pool while none has any). */
export function servingInstances(variants: VariantDetail[]): {
  instanceType: string | null;
  instanceCount: number | null;
  usedFallbackPool: boolean;
} {
  const variant = variants[0];
  if (!variant) return { instanceType: null, instanceCount: null, usedFallbackPool: false };
  if (variant.pools.length === 0) {
    return {
      instanceType: variant.instanceType,
      instanceCount: variant.currentInstanceCount ?? variant.desiredInstanceCount,
      usedFallbackPool: false,
    };
  }
  const winner = variant.pools.find((pool) => (pool.currentInstanceCount ?? 0) > 0);
  if (!winner) return { instanceType: null, instanceCount: 0, usedFallbackPool: false };
  return {
    instanceType: winner.instanceType,
    instanceCount: winner.currentInstanceCount,
    usedFallbackPool: winner.isFallback,
  };
}

export function summaryOf(resources: EndpointResources): EndpointSummary {
  const { endpoint } = resources;
  const env = environmentOf(resources);
  const image = imageOf(resources);
  const variants = variantDetails(resources);
  const serving = servingInstances(variants);
  return {
    name: endpoint.EndpointName ?? "",
    arn: endpoint.EndpointArn ?? "",
    status: (endpoint.EndpointStatus ?? "OutOfService") as EndpointStatus,
    apiMode: apiModeOf(env, image),
    ...serving,
    imageDigest: digestOf(variants[0]?.resolvedImage) ?? digestOf(image),
    modelSha256: modelSha256Of(env, resources.records),
    createdAt: iso(endpoint.CreationTime),
    lastModifiedAt: iso(endpoint.LastModifiedTime),
    hourlyPriceUsd: priceForInstances(serving.instanceType, serving.instanceCount),
    variantName: variants[0]?.name ?? null,
    costPerThousandUsd: null,
    failureReason: endpoint.FailureReason ?? null,
    managed: true,
  };
}
