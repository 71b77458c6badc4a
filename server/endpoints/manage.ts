import {
  DeleteEndpointCommand,
  DeleteEndpointConfigCommand,
  DeleteModelCommand,
  type SageMakerClient,
  UpdateEndpointWeightsAndCapacitiesCommand,
} from "@aws-sdk/client-sagemaker";
import type { DeletedResources, ScaleResult } from "../../contract/endpoints/endpoint.ts";
import { type EndpointStatus, isTransitional } from "../../contract/endpoints/status.ts";
import { wakeAlarmName } from "../autoscaling/scale-to-zero.ts";
import { removeAutoscaling, type ScalingClients } from "../autoscaling/variant-scaling.ts";
import { awsCall, toAwsAppError } from "../aws/errors.ts";
import { AppError } from "../http/app-error.ts";
import { loadEndpointResources } from "./resources.ts";
import { deleteAlarmsIfPresent, rollbackGuardAlarmNames } from "./rollback-alarms.ts";

function refuseWhileTransitional(name: string, status: EndpointStatus | undefined, action: string): void {
  if (status && isTransitional(status)) {
    throw new AppError(
      "conflict",
      `Endpoint "${name}" is ${status}; it can be ${action} once it is InService or Failed.`,
      { status },
    );
  }
}

/** Sets the variant's desired instance count (UpdateEndpointWeightsAndCapacities). */
export async function updateInstanceCount(
  sageMaker: SageMakerClient,
  name: string,
  instanceCount: number,
): Promise<ScaleResult> {
  const { endpoint } = await loadEndpointResources(sageMaker, name);
  refuseWhileTransitional(name, endpoint.EndpointStatus as EndpointStatus | undefined, "scaled");
  if (endpoint.EndpointStatus !== "InService") {
    throw new AppError(
      "conflict",
      `Endpoint "${name}" is ${endpoint.EndpointStatus}; only an InService endpoint can be scaled.`,
    );
  }
  const variant = endpoint.ProductionVariants?.[0]?.VariantName;
  if (!variant) throw new AppError("conflict", `Endpoint "${name}" reports no variant to scale.`);
  await awsCall(`endpoint "${name}"`, () =>
    sageMaker.send(
      new UpdateEndpointWeightsAndCapacitiesCommand({
        EndpointName: name,
        DesiredWeightsAndCapacities: [{ VariantName: variant, DesiredInstanceCount: instanceCount }],
      }),
    ),
  );
  return { name, variantName: variant, instanceCount };
}

async function deleteIfPresent(what: string, call: () => Promise<unknown>): Promise<boolean> {
  try {
    await call();
    return true;
  } catch (error) {
    const mapped = toAwsAppError(error, what);
    if (mapped.status === 404) return false;
    throw mapped;
  }
}

/**
 * Deletes the endpoint, then the config it names and the model that config names: only those, never a prefix
 * match. Refused while the endpoint is Creating or Updating (SageMaker would leave a half-deleted deployment).
 * First its autoscaling, and every alarm the console created for it (the rollback guards of its updates, the
 * scale-to-zero wake-up alarm; alarms outlive the endpoint and are billed): a failure there stops the delete before
 * the endpoint goes, so nothing is left unreachable. Application Auto Scaling deletes its own target-tracking alarms
 * with the policies.
 */
export async function deleteEndpoint(
  clients: { sageMaker: SageMakerClient } & ScalingClients,
  name: string,
): Promise<Omit<DeletedResources, "settings">> {
  const { sageMaker } = clients;
  const { endpoint, config } = await loadEndpointResources(sageMaker, name);
  refuseWhileTransitional(name, endpoint.EndpointStatus as EndpointStatus | undefined, "deleted");
  const variant = endpoint.ProductionVariants?.[0]?.VariantName ?? config?.ProductionVariants?.[0]?.VariantName;
  if (variant) await removeAutoscalingQuietly(clients, name, variant);
  const alarms = await deleteAlarmsIfPresent(clients.cloudWatch, [
    ...rollbackGuardAlarmNames(name),
    wakeAlarmName(name),
  ]);
  await awsCall(`endpoint "${name}"`, () => sageMaker.send(new DeleteEndpointCommand({ EndpointName: name })));
  const configName = endpoint.EndpointConfigName ?? null;
  const modelName = config?.ProductionVariants?.[0]?.ModelName ?? null;
  const deletedConfig =
    configName !== null &&
    (await deleteIfPresent(`endpoint config "${configName}"`, () =>
      sageMaker.send(new DeleteEndpointConfigCommand({ EndpointConfigName: configName })),
    ));
  const deletedModel =
    modelName !== null &&
    (await deleteIfPresent(`model "${modelName}"`, () =>
      sageMaker.send(new DeleteModelCommand({ ModelName: modelName })),
    ));
  return {
    endpoint: endpoint.EndpointName ?? name,
    endpointConfig: deletedConfig ? configName : null,
    model: deletedModel ? modelName : null,
    alarms,
  };
}

/** A scalable target left behind would keep trying to scale a deleted endpoint, but it must not block the delete. */
async function removeAutoscalingQuietly(clients: ScalingClients, name: string, variant: string): Promise<void> {
  try {
    await removeAutoscaling(clients, name, variant);
  } catch (error) {
    console.error(
      JSON.stringify({ level: "warn", msg: "autoscaling not removed", endpoint: name, error: String(error) }),
    );
  }
}
