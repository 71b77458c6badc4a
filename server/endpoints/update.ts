import { createHash } from "node:crypto";
import type { ApplicationAutoScalingClient } from "@aws-sdk/client-application-auto-scaling";
import type { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import {
  type ContainerDefinition,
  CreateEndpointConfigCommand,
  type CreateEndpointConfigInput,
  CreateModelCommand,
  type CreateModelInput,
  DeleteEndpointConfigCommand,
  DeleteModelCommand,
  DescribeEndpointConfigCommand,
  type ProductionVariant,
  type ProductionVariantInstanceType,
  type SageMakerClient,
  UpdateEndpointCommand,
  type UpdateEndpointCommandInput,
} from "@aws-sdk/client-sagemaker";
import { semifVariables } from "@decision-console/adapter/contract";
import type { Autoscaling } from "../../contract/endpoints/autoscaling.ts";
import { MAX_RESOURCE_NAME_LENGTH } from "../../contract/endpoints/resource-name.ts";
import {
  deploymentConfigOf,
  type EndpointChange,
  type UpdateRequest,
  type UpdateResult,
} from "../../contract/endpoints/update.ts";
import type { ModelVersion } from "../../contract/models/model-registry.ts";
import { forgetPendingRestore, recordPendingRestore, takeUpPendingRestore } from "../autoscaling/pending-restores.ts";
import { describeAutoscaling, removeAutoscaling, restoreAutoscaling } from "../autoscaling/variant-scaling.ts";
import { awsCall, toAwsAppError } from "../aws/errors.ts";
import { AppError } from "../http/app-error.ts";
import { deployableVersion } from "../models/deployable-version.ts";
import type { LeaseTiming } from "../store/leases.ts";
import type { Store } from "../store/store.ts";
import { collectOldConfigs, isUpdateTarget } from "./config-history.ts";
import { adapterModelSha256Variable, apiModeOf } from "./container-env.ts";
import { bestEffort } from "./deploy.ts";
import { type LinkedBy, linkVersionEvaluation } from "./evaluation-link.ts";
import { isEarlierConsoleVariable, type ModelRecords, recordTags } from "./model-records.ts";
import { type EndpointResources, loadEndpointResources } from "./resources.ts";
import { putStandardAlarms } from "./rollback-alarms.ts";

/**
 * The model's container with the change applied (image, model data and the adapter's variables), and the sha256 the
 * new model's tags record for a chat container, which cannot check it.
 */
function changedContainer(
  container: ContainerDefinition,
  change: EndpointChange,
  records: ModelRecords,
): { container: ContainerDefinition; recordedSha256: string | undefined } {
  const chat = apiModeOf(container.Environment ?? {}, container.Image ?? null) === "chat";
  const environment = withoutConsoleVariables(container.Environment);
  if (chat && (change.temperature !== undefined || change.parallel !== undefined)) {
    throw new AppError(
      "bad_request",
      "change: temperature and parallel are decision-adapter settings; this is a chat endpoint.",
    );
  }
  if (change.threads !== undefined)
    environment[chat ? "SM_LLAMA_CPP_THREADS" : "ADAPTER_THREADS"] = String(change.threads);
  if (change.parallel !== undefined) environment.ADAPTER_PARALLEL = String(change.parallel);
  if (change.temperature === null) delete environment[semifVariables.temperature];
  else if (change.temperature !== undefined) environment[semifVariables.temperature] = String(change.temperature);
  // A version's container names the version; SageMaker takes the image and model data from it.
  const named = change.modelVersionArn ? { ...container, ModelPackageName: change.modelVersionArn } : container;
  const next = servedAsNamed(named, environment);
  let recordedSha256 = chat ? records.modelSha256 : undefined;
  // The adapter refuses to start unless its GGUF matches; the llama.cpp DLC cannot check, so there it is recorded.
  const newArtifact = (sha256: string | undefined) => {
    delete environment[adapterModelSha256Variable];
    recordedSha256 = chat ? sha256 : undefined;
    if (sha256 && !chat) environment[adapterModelSha256Variable] = sha256;
  };
  if (change.modelVersionArn) {
    newArtifact(change.modelSha256);
    return { container: next, recordedSha256 };
  }
  if (container.ModelPackageName && (change.imageUri || change.modelDataUrl)) {
    throw new AppError(
      "bad_request",
      `change: the endpoint serves model version ${container.ModelPackageName}; change its image or model data by updating it to another Approved version (modelVersionArn).`,
    );
  }
  if (change.imageUri) next.Image = change.imageUri;
  if (change.modelDataUrl) {
    if (container.ModelDataSource?.S3DataSource) {
      const uri = change.modelDataUrl.endsWith("/") ? change.modelDataUrl : `${change.modelDataUrl}/`;
      next.ModelDataSource = { S3DataSource: { ...container.ModelDataSource.S3DataSource, S3Uri: uri } };
    } else next.ModelDataUrl = change.modelDataUrl;
    newArtifact(change.modelSha256);
  } else if (change.modelSha256) {
    throw new AppError("bad_request", "change.modelSha256: give it with the new modelDataUrl it describes.");
  }
  return { container: next, recordedSha256 };
}

/**
 * A change to a registry version, with the version's sha256 (which the adapter checks), once it may be deployed; and
 * the version.
 */
export async function withVersionArtifact(
  sageMaker: SageMakerClient,
  change: EndpointChange,
  prefix: string | null,
): Promise<{ change: EndpointChange; version: ModelVersion }> {
  if (change.imageUri !== undefined || change.modelDataUrl !== undefined) {
    throw new AppError(
      "bad_request",
      "change: a model version names its image and model data; give modelVersionArn without imageUri or modelDataUrl.",
    );
  }
  const version = await deployableVersion(
    sageMaker,
    change.modelVersionArn ?? "",
    prefix,
    change,
    "change.modelVersionArn",
  );
  return { change: { ...change, modelSha256: version.modelSha256 ?? undefined }, version };
}

/**
 * The container as its new model would name it, with `environment` (by default its own without the console's old
 * variables): a version's without the image and model data it resolved to.
 */
function servedAsNamed(
  container: ContainerDefinition,
  environment: Record<string, string> = withoutConsoleVariables(container.Environment),
): ContainerDefinition {
  const named: ContainerDefinition = { ...container, Environment: environment };
  if (container.ModelPackageName) {
    delete named.Image;
    delete named.ModelDataUrl;
    delete named.ModelDataSource;
  }
  return named;
}

/** A container's Environment without the variables earlier consoles put there for themselves (never passed on). */
function withoutConsoleVariables(environment: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(environment ?? {}).filter(([name]) => !isEarlierConsoleVariable(name)));
}

/** The variant with the change's instance count, and its instance type or pools (one replaces the other). */
function changedVariant(variant: ProductionVariant, change: EndpointChange): ProductionVariant {
  if (change.instanceType !== undefined && change.instancePools !== undefined) {
    throw new AppError("bad_request", "change: give an instance type or instance pools, not both.");
  }
  const counted = {
    ...variant,
    ...(change.instanceCount === undefined ? {} : { InitialInstanceCount: change.instanceCount }),
  };
  if (change.instanceType === undefined && change.instancePools === undefined) return counted;
  const { InstanceType: _type, InstancePools: _pools, ...rest } = counted;
  return change.instanceType !== undefined
    ? { ...rest, InstanceType: change.instanceType as ProductionVariantInstanceType }
    : {
        ...rest,
        InstancePools: (change.instancePools ?? []).map((type, index) => ({
          InstanceType: type as ProductionVariantInstanceType,
          Priority: index + 1,
        })),
      };
}

/** A variant's instance type as autoscaling sees it: the type, or the pools' types by priority (a move counts). */
const instanceTypesOf = (variant: ProductionVariant | undefined) =>
  variant?.InstancePools?.length
    ? {
        pools: [...variant.InstancePools]
          .sort((a, b) => (a.Priority ?? 0) - (b.Priority ?? 0))
          .map((p) => p.InstanceType),
      }
    : { type: variant?.InstanceType };

/** `<endpoint>-<8 hex of the new model and variant>`, within SageMaker's 63 characters. */
export function derivedName(endpoint: string, definition: unknown): string {
  const sha = createHash("sha256").update(JSON.stringify(definition)).digest("hex").slice(0, 8);
  return `${endpoint.slice(0, MAX_RESOURCE_NAME_LENGTH - sha.length - 1)}-${sha}`;
}

const alreadyExists = (error: unknown) => /already exist/i.test((error as Error).message ?? "");

/** Creates a resource unless one of the same (content-derived) name exists; true when this call created it. */
export async function createUnlessPresent(what: string, create: () => Promise<unknown>): Promise<boolean> {
  try {
    await create();
    return true;
  } catch (error) {
    if (alreadyExists(error)) return false;
    throw toAwsAppError(error, what);
  }
}

/** The new model and endpoint configuration: the serving ones with the change, under derived names. */
export function updatedResources(resources: EndpointResources, change: EndpointChange) {
  const { endpoint, config, model } = resources;
  const name = endpoint.EndpointName ?? "";
  const container = model?.PrimaryContainer;
  const variant = config?.ProductionVariants?.[0];
  if (!config || !model || !container || !variant || (config.ProductionVariants?.length ?? 0) > 1) {
    throw new AppError(
      "conflict",
      `Endpoint "${name}" has no single-variant configuration and model the console can update in place.`,
    );
  }
  const { container: newContainer, recordedSha256 } = changedContainer(container, change, resources.records);
  const newVariant = changedVariant(variant, change);
  // A chat model's recorded sha256 is part of what it is, though it is a tag (so it is in the derived name).
  const sha = (recorded: string | undefined) => (recorded ? { recordedSha256: recorded } : {});
  const definition = {
    container: newContainer,
    role: model.ExecutionRoleArn,
    isolation: model.EnableNetworkIsolation,
    variant: { ...newVariant, ModelName: undefined },
    ...sha(recordedSha256),
  };
  const chat = apiModeOf(container.Environment ?? {}, container.Image ?? null) === "chat";
  const unchanged = {
    container: servedAsNamed(container),
    role: model.ExecutionRoleArn,
    isolation: model.EnableNetworkIsolation,
    variant: { ...variant, ModelName: undefined },
    ...sha(chat ? resources.records.modelSha256 : undefined),
  };
  if (JSON.stringify(definition) === JSON.stringify(unchanged)) {
    throw new AppError("bad_request", "change: nothing differs from what the endpoint runs now.");
  }
  const newName = derivedName(name, definition);
  const modelInput: CreateModelInput = {
    ModelName: newName,
    ExecutionRoleArn: model.ExecutionRoleArn,
    EnableNetworkIsolation: model.EnableNetworkIsolation,
    PrimaryContainer: newContainer,
    Tags: recordTags({ modelSha256: recordedSha256, previousConfig: endpoint.EndpointConfigName }),
  };
  const configInput: CreateEndpointConfigInput = {
    EndpointConfigName: newName,
    ProductionVariants: [{ ...newVariant, ModelName: newName }],
    ...(config.AsyncInferenceConfig ? { AsyncInferenceConfig: config.AsyncInferenceConfig } : {}),
    ...(config.DataCaptureConfig ? { DataCaptureConfig: config.DataCaptureConfig } : {}),
    ...(config.KmsKeyId ? { KmsKeyId: config.KmsKeyId } : {}),
  };
  return {
    modelInput,
    configInput,
    variantName: variant.VariantName ?? "",
    changesInstanceType: JSON.stringify(instanceTypesOf(variant)) !== JSON.stringify(instanceTypesOf(newVariant)),
  };
}

type UpdateClients = {
  sageMaker: SageMakerClient;
  cloudWatch: CloudWatchClient;
  autoScaling: ApplicationAutoScalingClient;
  /** Where a variant's autoscaling waits, while an update runs, to be registered again (autoscaling_restores). */
  store: Store;
};

export interface UpdateOptions {
  /** CONSOLE_RESOURCE_PREFIX: the model package groups a change may name a version of. */
  resourceNamePrefix?: string | null;
  /** Seconds between DescribeEndpoint calls while waiting for the update to end (to register autoscaling again). */
  pollSeconds?: number;
  /** How long this process's claim on registering the autoscaling again lasts unrenewed (CONSOLE_LEASE_SECONDS). */
  lease?: LeaseTiming;
  /** Receives the wait-and-register-again that follows an update which had to deregister autoscaling. */
  afterUpdate?: (task: Promise<void>) => void;
  /** Who applies the update, and why: the evaluation attached to a registry version it applies becomes the endpoint's. */
  linkedBy?: LinkedBy;
}

/**
 * UpdateEndpoint. When it changes the variant's instance type and the variant has autoscaling, which Application
 * Auto Scaling refuses, the scalable target is deregistered first and registered again after (at once when the
 * update is refused); the autoscaling registered again, or null. What to register again is stored before the
 * target is deregistered, so a console that stops meanwhile leaves it to another replica (pending-restores.ts).
 */
async function sendUpdate(
  clients: UpdateClients,
  input: UpdateEndpointCommandInput,
  variant: string,
  changesInstanceType: boolean,
  options: UpdateOptions,
): Promise<Autoscaling | null> {
  const name = input.EndpointName ?? "";
  const scaling = changesInstanceType ? await describeAutoscaling(clients.autoScaling, name, variant) : null;
  if (scaling) {
    await recordPendingRestore(clients.store, name, variant, scaling);
    await removeAutoscaling(clients, name, variant);
  }
  await awsCall(`endpoint "${name}"`, () => clients.sageMaker.send(new UpdateEndpointCommand(input))).catch(
    async (error: unknown) => {
      if (scaling) {
        await restoreAutoscaling(clients, name, variant, scaling);
        await forgetPendingRestore(clients.store, name);
      }
      throw error;
    },
  );
  if (scaling) {
    const restored = takeUpPendingRestore({ aws: clients, store: clients.store }, name, {
      pollSeconds: options.pollSeconds,
      lease: options.lease,
    });
    options.afterUpdate?.(restored);
  }
  return scaling;
}

async function rollbackAlarmNames(
  cloudWatch: CloudWatchClient,
  resources: EndpointResources,
  variant: string,
  alarms: UpdateRequest["alarms"],
): Promise<string[]> {
  const name = resources.endpoint.EndpointName ?? "";
  const kind = resources.config?.AsyncInferenceConfig ? "asynchronous" : "real-time";
  if (alarms.kind === "standard") return putStandardAlarms(cloudWatch, name, variant, alarms, kind);
  return alarms.kind === "existing" ? alarms.names : [];
}

/** Back to an earlier configuration of this endpoint (kept by the updates that replaced it), by the same strategy. */
async function rollBack(
  clients: UpdateClients,
  resources: EndpointResources,
  target: string,
  request: UpdateRequest,
  options: UpdateOptions,
): Promise<UpdateResult> {
  const name = resources.endpoint.EndpointName ?? "";
  if (Object.keys(request.change).length > 0) {
    throw new AppError("bad_request", "rollBackTo: a roll back changes nothing else; leave change empty.");
  }
  if (!isUpdateTarget(name, target) || target === resources.endpoint.EndpointConfigName) {
    throw new AppError("bad_request", `rollBackTo: "${target}" is not an earlier configuration of endpoint "${name}".`);
  }
  const current = resources.config?.ProductionVariants?.[0];
  const variant = current?.VariantName ?? "";
  const earlier = await awsCall(`endpoint config "${target}"`, () =>
    clients.sageMaker.send(new DescribeEndpointConfigCommand({ EndpointConfigName: target })),
  );
  const back = earlier.ProductionVariants?.find((v) => v.VariantName === variant);
  const changesInstanceType = JSON.stringify(instanceTypesOf(current)) !== JSON.stringify(instanceTypesOf(back));
  const alarms = await rollbackAlarmNames(clients.cloudWatch, resources, variant, request.alarms);
  const deploymentConfig = deploymentConfigOf(request, alarms);
  const autoscalingReRegistered = await sendUpdate(
    clients,
    {
      EndpointName: name,
      EndpointConfigName: target,
      RetainAllVariantProperties: true,
      DeploymentConfig: deploymentConfig,
    },
    variant,
    changesInstanceType,
    options,
  );
  return {
    name,
    endpointConfigName: target,
    modelName: target,
    previousEndpointConfigName: resources.endpoint.EndpointConfigName ?? "",
    alarms,
    deploymentConfig,
    autoscalingReRegistered,
    status: "Updating",
  };
}

/**
 * Changes what an InService endpoint runs without a new name: CreateModel and CreateEndpointConfig with the change
 * (named `<endpoint>-<short sha>`, so the same change reuses them), the rollback alarms (PutMetricAlarm for the
 * standard ones), then UpdateEndpoint with the DeploymentConfig. The instance count the endpoint serves with now
 * (autoscaling's included) is kept unless the change sets one. The new model records the configuration it replaces
 * (its previous-config tag, model-records.ts), which is kept for a roll back (`rollBackTo`); older ones go by the rule in
 * config-history.ts. A change of instance type or pools on a variant with autoscaling deregisters its scalable target
 * first and registers it again, with the same bounds and policy, once the endpoint is InService (the developer
 * guide's "Update endpoints that use auto scaling").
 */
export async function updateEndpoint(
  clients: UpdateClients,
  name: string,
  request: UpdateRequest,
  options: UpdateOptions = {},
): Promise<UpdateResult> {
  const { sageMaker } = clients;
  const resources = await loadEndpointResources(sageMaker, name);
  const status = resources.endpoint.EndpointStatus;
  if (status !== "InService") {
    throw new AppError("conflict", `Endpoint "${name}" is ${status}; it can be updated once it is InService.`, {
      status,
    });
  }
  if ((resources.config?.ShadowProductionVariants?.length ?? 0) > 0) {
    throw new AppError(
      "conflict",
      `Endpoint "${name}" runs a shadow test; promote the shadow or end the test before updating it.`,
    );
  }
  if (request.rollBackTo !== undefined) return rollBack(clients, resources, request.rollBackTo, request, options);
  const { change, version } = request.change.modelVersionArn
    ? await withVersionArtifact(sageMaker, request.change, options.resourceNamePrefix ?? null)
    : { change: request.change, version: null };
  const { modelInput, configInput, variantName, changesInstanceType } = updatedResources(resources, change);
  const newName = modelInput.ModelName ?? "";
  const alarms = await rollbackAlarmNames(clients.cloudWatch, resources, variantName, request.alarms);
  const createdModel = await createUnlessPresent(`model "${newName}"`, () =>
    sageMaker.send(new CreateModelCommand(modelInput)),
  );
  let createdConfig = false;
  let result: UpdateResult;
  try {
    createdConfig = await createUnlessPresent(`endpoint config "${newName}"`, () =>
      sageMaker.send(new CreateEndpointConfigCommand(configInput)),
    );
    const deploymentConfig = deploymentConfigOf(request, alarms);
    const autoscalingReRegistered = await sendUpdate(
      clients,
      {
        EndpointName: name,
        EndpointConfigName: newName,
        RetainAllVariantProperties: request.change.instanceCount === undefined,
        DeploymentConfig: deploymentConfig,
      },
      variantName,
      changesInstanceType,
      options,
    );
    await collectOldConfigs(sageMaker, resources, newName);
    result = {
      name,
      endpointConfigName: newName,
      modelName: newName,
      previousEndpointConfigName: resources.endpoint.EndpointConfigName ?? "",
      alarms: [...alarms],
      deploymentConfig,
      autoscalingReRegistered,
      status: "Updating",
    };
  } catch (error) {
    if (createdConfig) {
      await bestEffort(() => sageMaker.send(new DeleteEndpointConfigCommand({ EndpointConfigName: newName })));
    }
    if (createdModel) await bestEffort(() => sageMaker.send(new DeleteModelCommand({ ModelName: newName })));
    throw error;
  }
  if (version && options.linkedBy) await linkVersionEvaluation(clients.store, name, version, options.linkedBy);
  return result;
}
