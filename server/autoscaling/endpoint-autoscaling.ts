import type { SageMakerClient } from "@aws-sdk/client-sagemaker";
import type { Autoscaling, AutoscalingRequest } from "../../contract/endpoints/autoscaling.ts";
import { loadEndpointResources } from "../endpoints/resources.ts";
import { AppError } from "../http/app-error.ts";
import { configureAutoscaling, type ScalingClients } from "./variant-scaling.ts";

/**
 * `PUT /api/endpoints/[name]/autoscaling`: scale to zero only for an asynchronous endpoint (its policies track
 * ApproximateBacklogSizePerInstance and wake on HasBacklogWithoutCapacity, which SageMaker publishes for asynchronous
 * endpoints only), refused before anything is registered; then configureAutoscaling.
 */
export async function putEndpointAutoscaling(
  clients: { sageMaker: SageMakerClient } & ScalingClients,
  endpointName: string,
  variant: string,
  request: AutoscalingRequest,
): Promise<Autoscaling> {
  if (request.scaleToZero) {
    const { config } = await loadEndpointResources(clients.sageMaker, endpointName);
    if (!config?.AsyncInferenceConfig) {
      throw new AppError(
        "bad_request",
        `scaleToZero: "${endpointName}" is a real-time endpoint. Scale to zero needs an asynchronous endpoint: it follows the queue (ApproximateBacklogSizePerInstance, HasBacklogWithoutCapacity), which a real-time endpoint does not have, and a real-time endpoint keeps at least one instance.`,
      );
    }
  }
  return configureAutoscaling(clients, endpointName, variant, request);
}
