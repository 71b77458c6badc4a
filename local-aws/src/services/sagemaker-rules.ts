import { validation } from "../wire/aws-error.ts";
import { notServedLocally } from "../wire/served-members.ts";
import { instanceTypeHasInstanceStorage } from "./instance-storage.ts";

/**
 * SageMaker's rules that the API reference states in prose, for the operations local mode serves (one of
 * InstanceType or InstancePools, InitialInstanceCount for instance-based variants, unique variant names and pool
 * priorities, no VolumeSizeInGB on an instance type with instance storage, names unique regardless of case). The
 * constraint traits (lengths, patterns, ranges, enums) are generated from the service model:
 * ../wire/generated/sagemaker.ts.
 */

/**
 * ContainerDefinition.ModelDataSource in the API reference: "Currently you cannot use ModelDataSource in conjunction
 * with SageMaker batch transform, SageMaker serverless endpoints, SageMaker multi-model endpoints, and SageMaker
 * Marketplace." A transform job's model must give its data as ModelDataUrl (a model.tar.gz).
 */
export function checkTransformModel(model: {
  ModelArn: string;
  PrimaryContainer?: { ModelDataSource?: unknown };
  Containers?: { ModelDataSource?: unknown }[];
}): void {
  const containers = [model.PrimaryContainer, ...(model.Containers ?? [])];
  if (containers.some((container) => container?.ModelDataSource !== undefined)) {
    throw validation(
      `Model "${model.ModelArn}" specifies its model data with ModelDataSource, which cannot be used with batch transform. Create the model with ModelDataUrl (a model.tar.gz) for a transform job.`,
    );
  }
}

/**
 * CreateModel's ExecutionRoleArn, "the IAM role that SageMaker can assume to access model artifacts and docker image
 * for deployment" (API reference): SageMaker assumes it when the model is created and refuses a role it cannot
 * assume with a ValidationException worded "Could not assume role <arn>. Please ensure that the role exists and
 * allows principal 'sagemaker.amazonaws.com' to assume the role." (as AWS answers it, e.g.
 * awslabs/predictive-maintenance-using-machine-learning issue 3). The local account has one such role: the stack's.
 */
export function checkAssumableRole(roleArn: string | undefined, assumable: (roleArn: string) => boolean): void {
  if (roleArn === undefined || assumable(roleArn)) return;
  throw validation(
    `Could not assume role ${roleArn}. Please ensure that the role exists and allows principal 'sagemaker.amazonaws.com' to assume the role.`,
  );
}

interface VariantInput {
  VariantName: string;
  ModelName?: string;
  InitialInstanceCount?: number;
  InstanceType?: string;
  InstancePools?: { Priority: number; InstanceType?: string }[];
  ServerlessConfig?: unknown;
  VolumeSizeInGB?: number;
}

/** What CreateEndpointConfig's reference says in prose about production variants, once the shape has passed. */
export function checkProductionVariants(variants: VariantInput[]): void {
  const seen = new Set<string>();
  for (const variant of variants) {
    const id = variant.VariantName.toLowerCase();
    if (seen.has(id))
      throw validation(
        `Multiple production variants are named "${variant.VariantName}"; variant names must be unique.`,
      );
    seen.add(id);
    const pools = variant.InstancePools ?? [];
    if (variant.InstanceType && pools.length > 0) {
      throw validation(`Variant "${variant.VariantName}" specifies both InstanceType and InstancePools; specify one.`);
    }
    if (variant.ServerlessConfig !== undefined) {
      throw validation("Serverless variants are not served by the local control plane.");
    }
    if (!variant.InstanceType && pools.length === 0) {
      throw validation(`Variant "${variant.VariantName}" needs an InstanceType or InstancePools.`);
    }
    if (variant.InitialInstanceCount === undefined) {
      throw validation(`InitialInstanceCount is required for instance-based variant "${variant.VariantName}".`);
    }
    if (!variant.ModelName) {
      throw validation(
        `Variant "${variant.VariantName}" needs a ModelName (inference components are not served locally).`,
      );
    }
    const types = variant.InstanceType ? [variant.InstanceType] : pools.map((pool) => pool.InstanceType ?? "");
    const withInstanceStorage = types.find(instanceTypeHasInstanceStorage);
    if (variant.VolumeSizeInGB !== undefined && withInstanceStorage) {
      throw validation(
        `VolumeSizeInGB is not supported for the instance type ${withInstanceStorage}, which has instance storage.`,
      );
    }
    const priorities = pools.map((pool) => pool.Priority);
    if (new Set(priorities).size !== priorities.length) {
      throw validation(`The instance pools of variant "${variant.VariantName}" must have unique priorities.`);
    }
  }
}

/** CreateModel needs one container, given as PrimaryContainer or Containers. */
export function checkContainers(input: { PrimaryContainer?: { Image?: string }; Containers?: { Image?: string }[] }) {
  const containers = input.PrimaryContainer ? [input.PrimaryContainer] : (input.Containers ?? []);
  if (containers.length === 0) throw validation("Either PrimaryContainer or Containers must be specified.");
  if (input.PrimaryContainer && input.Containers?.length) {
    throw validation("Specify either PrimaryContainer or Containers, not both.");
  }
  for (const container of containers) if (!container.Image) throw validation("Every container needs an Image.");
}

const RESOURCE_KIND = { model: "model", "endpoint-config": "endpoint configuration", endpoint: "endpoint" } as const;

/**
 * SageMaker names are case-insensitive (its ARNs carry them in lower case): Create refuses a name that exists in
 * any case. `existing` is the stored resource of that name, looked up ignoring case.
 */
export function checkNameIsFree(kind: keyof typeof RESOURCE_KIND, arn: string, existing: unknown): void {
  if (existing !== undefined) throw validation(`Cannot create already existing ${RESOURCE_KIND[kind]} "${arn}".`);
}

interface TransformJobInput {
  MaxConcurrentTransforms?: number;
  MaxPayloadInMB?: number;
  TransformInput: { DataSource: { S3DataSource: { S3DataType: string; S3Uri: string } }; SplitType?: string };
  TransformOutput: { S3OutputPath: string };
  DataProcessing?: { InputFilter?: string; OutputFilter?: string };
  DataCaptureConfig?: unknown;
}

/**
 * What CreateTransformJob's reference says in prose once the shape has passed (MaxPayloadInMB at most 100 MB, and
 * MaxConcurrentTransforms × MaxPayloadInMB too), then what local mode does not run, refused rather than ignored.
 */
export function checkTransformJob(input: TransformJobInput): void {
  const payload = input.MaxPayloadInMB;
  if (payload !== undefined && payload > 100) {
    throw validation(`MaxPayloadInMB (${payload}) cannot be greater than 100 MB.`);
  }
  const concurrency = input.MaxConcurrentTransforms;
  if (payload && concurrency && concurrency * payload > 100) {
    throw validation(
      `The value of MaxConcurrentTransforms * MaxPayloadInMB (${concurrency} * ${payload}) cannot exceed 100 MB.`,
    );
  }
  const source = input.TransformInput.DataSource.S3DataSource;
  if (source.S3DataType !== "S3Prefix" && source.S3DataType !== "ManifestFile") {
    throw notServedLocally(`S3DataType ${source.S3DataType}`);
  }
  for (const uri of [source.S3Uri, input.TransformOutput.S3OutputPath]) {
    if (!uri.startsWith("s3://")) throw notServedLocally(`The HTTPS location ${uri} (use its s3:// URI)`);
  }
  const split = input.TransformInput.SplitType;
  if (split === "RecordIO" || split === "TFRecord") throw notServedLocally(`SplitType ${split}`);
  for (const [name, filter] of Object.entries({ ...input.DataProcessing })) {
    if ((name === "InputFilter" || name === "OutputFilter") && filter !== "$") {
      throw notServedLocally(`DataProcessing.${name} other than "$" (JSONPath ${filter})`);
    }
  }
  if (input.DataCaptureConfig !== undefined) throw notServedLocally("DataCaptureConfig");
}

/**
 * CreateEndpointConfig, ShadowProductionVariants: "If you use this field, you can only specify one variant for
 * ProductionVariants and one variant for ShadowProductionVariants" (the API reference; the Developer Guide's
 * "Create a shadow test": "a maximum of one shadow variant per endpoint ... a maximum of one production variant").
 * Variant names identify a variant across both lists (CloudWatch dimensions, data capture folders, TargetVariant),
 * so they must be unique across both. A shadow variant is then checked as a production variant is. Shadows on an
 * asynchronous endpoint are not served locally, and refused rather than ignored.
 */
export function checkShadowVariants(input: {
  ProductionVariants: VariantInput[];
  ShadowProductionVariants?: VariantInput[];
  AsyncInferenceConfig?: unknown;
}): void {
  const shadows = input.ShadowProductionVariants ?? [];
  if (shadows.length === 0) return;
  if (input.ProductionVariants.length !== 1 || shadows.length !== 1) {
    throw validation(
      "If you use ShadowProductionVariants, you can only specify one variant for ProductionVariants and one variant for ShadowProductionVariants.",
    );
  }
  const production = new Set(input.ProductionVariants.map((variant) => variant.VariantName.toLowerCase()));
  for (const shadow of shadows) {
    if (production.has(shadow.VariantName.toLowerCase())) {
      throw validation(
        `The shadow variant "${shadow.VariantName}" has the name of a production variant; variant names must be unique across ProductionVariants and ShadowProductionVariants.`,
      );
    }
  }
  checkProductionVariants(shadows);
  if (input.AsyncInferenceConfig !== undefined) {
    throw notServedLocally("ShadowProductionVariants on an asynchronous endpoint (AsyncInferenceConfig)");
  }
}

/**
 * UpdateEndpoint to or from a configuration with a shadow variant is served as the update without a
 * DeploymentConfig: the new fleet, shadow included, takes all traffic at once. A DeploymentConfig (traffic shifting,
 * rolling batches, rollback alarms) with a shadow variant on either side is not served locally, and refused.
 */
export function checkShadowUpdate(
  current: { ShadowProductionVariants?: unknown[] } | undefined,
  next: { ShadowProductionVariants?: unknown[] },
  deploymentConfig: unknown,
): void {
  const shadows = (current?.ShadowProductionVariants?.length ?? 0) + (next.ShadowProductionVariants?.length ?? 0);
  if (shadows > 0 && deploymentConfig !== undefined) {
    throw notServedLocally(
      "A DeploymentConfig for an update to or from an endpoint configuration with ShadowProductionVariants",
    );
  }
}
