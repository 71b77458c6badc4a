import type { ApplicationAutoScalingClient } from "@aws-sdk/client-application-auto-scaling";
import type { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import type { SageMakerClient } from "@aws-sdk/client-sagemaker";
import type { Autoscaling } from "../../contract/endpoints/autoscaling.ts";
import type { EndpointDetail } from "../../contract/endpoints/endpoint.ts";
import { priceForInstances } from "../../contract/pricing/prices.ts";
import { describeAutoscaling } from "../autoscaling/variant-scaling.ts";
import type { Store } from "../store/store.ts";
import { asyncInferenceDetail } from "./async-config.ts";
import { modelSha256Of, settingsOf } from "./container-env.ts";
import { dataCaptureDetail } from "./data-capture-config.ts";
import { variantName } from "./deploy.ts";
import { deploymentOf } from "./deployment-view.ts";
import { loadEndpointResources } from "./resources.ts";
import { environmentOf, imageOf, modelDataUrlOf, summaryOf, variantDetails } from "./view.ts";

/** Autoscaling is shown when it can be read; a failure to read it must not hide the endpoint itself. */
async function autoscalingOrNull(
  autoScaling: ApplicationAutoScalingClient,
  name: string,
  variant: string,
): Promise<Autoscaling | null> {
  try {
    return await describeAutoscaling(autoScaling, name, variant);
  } catch (error) {
    console.error(
      JSON.stringify({ level: "warn", msg: "autoscaling not readable", endpoint: name, error: String(error) }),
    );
    return null;
  }
}

/** The endpoint page's detail; with the console's store, also why its last update went back (the audit log). */
export async function describeEndpoint(
  clients: { sageMaker: SageMakerClient; autoScaling: ApplicationAutoScalingClient; cloudWatch: CloudWatchClient },
  name: string,
  store?: Store,
): Promise<EndpointDetail> {
  const resources = await loadEndpointResources(clients.sageMaker, name);
  const summary = summaryOf(resources);
  const variants = variantDetails(resources);
  const env = environmentOf(resources);
  const { config, model } = resources;
  const container = model?.PrimaryContainer ?? model?.Containers?.[0];
  const source = container?.ModelDataSource?.S3DataSource;
  const [autoscaling, deployment] = await Promise.all([
    autoscalingOrNull(clients.autoScaling, name, variants[0]?.name ?? variantName),
    deploymentOf(resources.endpoint, resources.records, clients.cloudWatch, store),
  ]);
  return {
    name: summary.name,
    arn: summary.arn,
    status: summary.status,
    apiMode: summary.apiMode,
    failureReason: summary.failureReason,
    createdAt: summary.createdAt,
    lastModifiedAt: summary.lastModifiedAt,
    config: {
      name: resources.endpoint.EndpointConfigName ?? "",
      createdAt: config?.CreationTime ? config.CreationTime.toISOString() : null,
    },
    model: {
      name: model?.ModelName ?? config?.ProductionVariants?.[0]?.ModelName ?? "",
      imageUri: imageOf(resources),
      modelDataUrl: modelDataUrlOf(container),
      compression: container?.ModelDataUrl
        ? "Gzip"
        : source
          ? source.CompressionType === "Gzip"
            ? "Gzip"
            : "None"
          : null,
      modelSha256: modelSha256Of(env, resources.records),
      modelVersionArn: container?.ModelPackageName ?? null,
      networkIsolation: model?.EnableNetworkIsolation ?? false,
      executionRoleArn: model?.ExecutionRoleArn ?? null,
      environment: env,
    },
    settings: settingsOf(env),
    dataCapture: dataCaptureDetail(resources.endpoint),
    variants,
    instanceType: summary.instanceType,
    instanceCount: summary.instanceCount,
    hourlyPriceUsd: priceForInstances(summary.instanceType, summary.instanceCount),
    autoscaling,
    asyncInference: asyncInferenceDetail(config),
    deployment,
  };
}
