import {
  CreateEndpointCommand,
  CreateEndpointConfigCommand,
  CreateModelCommand,
  type CreateModelInput,
  DeleteEndpointConfigCommand,
  DeleteModelCommand,
  DescribeEndpointCommand,
  type ProductionVariant,
  type ProductionVariantInstanceType,
  type SageMakerClient,
} from "@aws-sdk/client-sagemaker";
import type { DeployRequest, DeployResult } from "../../contract/endpoints/deploy.ts";
import { storageVolumeFor, VOLUME_SIZE_RANGE_GB } from "../../contract/endpoints/storage-volume.ts";
import { toAwsAppError } from "../aws/errors.ts";
import { realSleep, type Sleep } from "../aws/sleep.ts";
import { AppError } from "../http/app-error.ts";
import { deployableVersion } from "../models/deployable-version.ts";
import type { Store } from "../store/store.ts";
import { asyncInferenceConfig } from "./async-config.ts";
import { type ContainerRequest, containerEnvironment } from "./container-env.ts";
import { dataCaptureConfig } from "./data-capture-config.ts";
import { linkVersionEvaluation } from "./evaluation-link.ts";
import { type ModelRecords, recordTags } from "./model-records.ts";
import { assertPullableImage } from "./pullable-image.ts";

/** The sample's single variant (DESIGN §11). */
export const variantName = "AllTraffic";

export interface DeployOptions {
  /** Used when the request names no role (SAGEMAKER_EXECUTION_ROLE_ARN). */
  defaultExecutionRoleArn: string | null;
  /** Every deployed name must start with it (the IAM policy of the IaC stack allows no other names). */
  resourceNamePrefix?: string | null;
  /** Where asynchronous endpoints keep requests, answers and failures (CONSOLE_ARTIFACT_BUCKET). */
  artifactBucket?: string | null;
  sleep?: Sleep;
  /** Delays between CreateEndpoint attempts while SageMaker has not yet seen the new model or config. */
  createRetryDelaysMs?: readonly number[];
  /** Where the evaluation attached to the request's registry version becomes the endpoint's, and who deployed. */
  evaluationLink?: { store: Store; by: string };
}

const defaultCreateRetryDelaysMs = [1000, 2000, 4000, 8000];

/** A SageMaker model as the console creates it: for an endpoint, or for a batch job from a build's output. */
export type ModelDefinition = ContainerRequest &
  Pick<DeployRequest, "name" | "imageUri" | "modelDataUrl" | "compression"> & {
    /** A deployment's registry version: the model is created from it. */
    modelVersionArn?: string;
    /** For a batch job's model: the model build whose output it runs. */
    sourceBuildId?: string;
  };

/** What the model's tags record: the sha256 a chat container cannot check (the adapter checks its own), its build. */
function recordsOfDefinition(request: ModelDefinition): ModelRecords {
  return {
    ...(request.apiMode === "chat" && request.modelSha256 ? { modelSha256: request.modelSha256 } : {}),
    ...(request.sourceBuildId ? { sourceBuildId: request.sourceBuildId } : {}),
  };
}

export function modelInput(request: ModelDefinition, executionRoleArn: string): CreateModelInput {
  const modelData =
    request.compression === "Gzip"
      ? { ModelDataUrl: request.modelDataUrl }
      : {
          ModelDataSource: {
            S3DataSource: {
              S3Uri: request.modelDataUrl.endsWith("/") ? request.modelDataUrl : `${request.modelDataUrl}/`,
              S3DataType: "S3Prefix" as const,
              CompressionType: "None" as const,
            },
          },
        };
  const tags = recordTags(recordsOfDefinition(request));
  // A registry version names its image and model data itself: the container gives only the version and settings.
  const container = request.modelVersionArn
    ? { ModelPackageName: request.modelVersionArn, Environment: containerEnvironment(request) }
    : { Image: request.imageUri, Environment: containerEnvironment(request), ...modelData };
  return {
    ModelName: request.name,
    ExecutionRoleArn: executionRoleArn,
    EnableNetworkIsolation: true,
    PrimaryContainer: container,
    ...(tags ? { Tags: tags } : {}),
  };
}

export function executionRole(role: string | null | undefined): string {
  if (!role) {
    throw new AppError(
      "bad_request",
      "No SageMaker execution role: set SAGEMAKER_EXECUTION_ROLE_ARN for the console (a deploy request may give executionRoleArn instead).",
    );
  }
  return role;
}

/** CreateModel; a model of that name left from an earlier deployment or job is a conflict. */
export async function createModel(sageMaker: SageMakerClient, model: CreateModelInput): Promise<void> {
  try {
    await sageMaker.send(new CreateModelCommand(model));
  } catch (error) {
    if (/already existing model|already exists/i.test((error as Error).message ?? "")) {
      throw new AppError(
        "conflict",
        `A SageMaker model named "${model.ModelName}" already exists (left from an earlier deployment or job?); delete it or choose another name.`,
      );
    }
    throw toAwsAppError(error, `model "${model.ModelName}"`);
  }
}

/** VolumeSizeInGB for a CPU instance type with EBS storage, sized for the model data (contract/endpoints/storage-volume.ts). */
function volumeSize(instanceType: string, request: DeployRequest): { VolumeSizeInGB?: number } {
  const volume = storageVolumeFor(instanceType, request.modelBytes, request.compression);
  if (volume.kind !== "ebs") return {};
  if (volume.sizeGb > VOLUME_SIZE_RANGE_GB.max) {
    throw new AppError(
      "bad_request",
      `modelBytes: the model needs a ${volume.sizeGb} GB storage volume, more than the ${VOLUME_SIZE_RANGE_GB.max} GB SageMaker attaches to ${instanceType}; deploy it uncompressed (compression None) or to an instance type with instance storage.`,
    );
  }
  return { VolumeSizeInGB: volume.sizeGb };
}

export function productionVariant(request: DeployRequest): ProductionVariant {
  const common = {
    VariantName: variantName,
    ModelName: request.name,
    InitialInstanceCount: request.instanceCount,
    InitialVariantWeight: 1,
    ContainerStartupHealthCheckTimeoutInSeconds: request.startupTimeoutSeconds,
    ModelDataDownloadTimeoutInSeconds: request.downloadTimeoutSeconds,
  };
  const { compute } = request;
  if (compute.kind === "cpu") {
    return {
      ...common,
      InstanceType: compute.instanceType as ProductionVariantInstanceType,
      ...volumeSize(compute.instanceType, request),
    };
  }
  return {
    ...common,
    InstancePools: compute.pools.map((pool, index) => ({
      InstanceType: pool.instanceType as ProductionVariantInstanceType,
      Priority: index + 1,
    })),
    VariantInstanceProvisionTimeoutInSeconds: compute.provisioningTimeoutSeconds,
    // The CUDA 13 image needs NVIDIA driver >= 580, which SageMaker ships only on this inference AMI.
    InferenceAmiVersion: "al2023-ami-sagemaker-inference-gpu-4-1",
  };
}

function isEventualConsistencyMiss(error: unknown): boolean {
  const e = error as { name?: string; message?: string };
  return e.name === "ValidationException" && /could not find (model|endpoint config)/i.test(e.message ?? "");
}

async function endpointExists(sageMaker: SageMakerClient, name: string): Promise<boolean> {
  try {
    await sageMaker.send(new DescribeEndpointCommand({ EndpointName: name }));
    return true;
  } catch (error) {
    const mapped = toAwsAppError(error);
    if (mapped.status === 404) return false;
    throw mapped;
  }
}

/** Removes what a failed deploy or update created; a failure to remove is logged, never hides the first error. */
export async function bestEffort(call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
  } catch (error) {
    console.error(JSON.stringify({ level: "warn", msg: "clean-up failed", error: String(error) }));
  }
}

/**
 * CreateModel + CreateEndpointConfig + CreateEndpoint, all named `request.name`. Network isolation is always on.
 * If a later step fails, the resources this call created are removed again so the same name can be retried. The
 * evaluation attached to a registry version it deploys becomes the endpoint's (`options.evaluationLink`).
 */
export async function deployEndpoint(
  sageMaker: SageMakerClient,
  request: DeployRequest,
  options: DeployOptions,
): Promise<DeployResult> {
  const prefix = options.resourceNamePrefix;
  if (prefix && !request.name.startsWith(prefix)) {
    throw new AppError(
      "bad_request",
      `name: must start with "${prefix}", the prefix the console's IAM policy allows (CONSOLE_RESOURCE_PREFIX).`,
    );
  }
  assertPullableImage(request.imageUri, await sageMaker.config.region().catch(() => undefined));
  const version = request.modelVersionArn
    ? await deployableVersion(sageMaker, request.modelVersionArn, prefix ?? null, request)
    : null;
  const role = executionRole(request.executionRoleArn ?? options.defaultExecutionRoleArn);
  const sleep = options.sleep ?? realSleep;
  const delays = options.createRetryDelaysMs ?? defaultCreateRetryDelaysMs;
  const name = request.name;
  const model = modelInput(request, role);
  const variant = productionVariant(request);
  const asyncInference = asyncInferenceConfig(request, options.artifactBucket ?? null, prefix);
  const dataCapture = dataCaptureConfig(request, options.artifactBucket ?? null);

  if (await endpointExists(sageMaker, name)) {
    throw new AppError(
      "conflict",
      `An endpoint named "${name}" already exists; choose another name or delete it first.`,
    );
  }
  await createModel(sageMaker, model);
  try {
    await sageMaker.send(
      new CreateEndpointConfigCommand({
        EndpointConfigName: name,
        ProductionVariants: [variant],
        AsyncInferenceConfig: asyncInference,
        DataCaptureConfig: dataCapture,
      }),
    );
  } catch (error) {
    await bestEffort(() => sageMaker.send(new DeleteModelCommand({ ModelName: name })));
    if (/already existing endpoint config/i.test((error as Error).message ?? "")) {
      throw new AppError(
        "conflict",
        `An endpoint config named "${name}" already exists (left from an earlier deployment?); delete it or choose another name.`,
      );
    }
    throw toAwsAppError(error, `endpoint config "${name}"`);
  }
  for (let attempt = 1; ; attempt++) {
    let endpointArn: string;
    try {
      const created = await sageMaker.send(new CreateEndpointCommand({ EndpointName: name, EndpointConfigName: name }));
      endpointArn = created.EndpointArn ?? "";
    } catch (error) {
      const delay = delays[attempt - 1];
      if (isEventualConsistencyMiss(error) && delay !== undefined) {
        await sleep(delay);
        continue;
      }
      await bestEffort(() => sageMaker.send(new DeleteEndpointConfigCommand({ EndpointConfigName: name })));
      await bestEffort(() => sageMaker.send(new DeleteModelCommand({ ModelName: name })));
      throw toAwsAppError(error, `endpoint "${name}"`);
    }
    if (version && options.evaluationLink) {
      const { store, by } = options.evaluationLink;
      await linkVersionEvaluation(store, name, version, { why: "deployed", by });
    }
    return {
      name,
      endpointArn,
      modelName: name,
      endpointConfigName: name,
      status: "Creating",
      createAttempts: attempt,
    };
  }
}
