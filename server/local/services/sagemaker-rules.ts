import {
  AssemblyType,
  BatchStrategy,
  CompressionType,
  EndpointSortKey,
  EndpointStatus,
  JoinSource,
  OrderKey,
  ProductionVariantInferenceAmiVersion,
  ProductionVariantInstanceType,
  S3DataType,
  SortBy,
  SortOrder,
  SplitType,
  TransformInstanceType,
  TransformJobStatus,
} from "@aws-sdk/client-sagemaker";
import { hasInstanceStorage } from "../../../contract/endpoints/storage-volume.ts";
import { validation } from "../wire/aws-error.ts";
import type { Shape, StructureShape } from "../wire/input-shapes.ts";
import { deploymentConfigShape, excludedVariantPropertiesShape } from "./deployment-config-rules.ts";

/**
 * SageMaker's rules for every operation local mode serves, in one place: the model's constraint traits (from the
 * service model: lengths, patterns as SageMaker's messages print them, ranges; enums from the SDK), then the
 * rules the API reference states in prose (one of InstanceType or InstancePools, InitialInstanceCount for
 * instance-based variants, unique variant names and pool priorities, no VolumeSizeInGB on an instance type with
 * instance storage, names unique regardless of case).
 */

const name = (pattern: string): Shape => ({ type: "string", max: 63, pattern });
/** Endpoint, endpoint config and variant names. */
export const ENTITY_NAME = name("^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}");
/** Model names allow inner hyphens in runs (`[a-zA-Z0-9]([\-a-zA-Z0-9]*[a-zA-Z0-9])?`). */
export const MODEL_NAME = name("^[a-zA-Z0-9]([\\-a-zA-Z0-9]*[a-zA-Z0-9])?");

const instanceType: Shape = { type: "string", enum: Object.values(ProductionVariantInstanceType) };
const url: Shape = { type: "string", max: 1024, pattern: "^(https|s3)://([^/]+)/?(.*)" };
const tags: Shape = {
  type: "list",
  max: 50,
  member: {
    type: "structure",
    required: ["Key", "Value"],
    members: {
      Key: { type: "string", min: 1, max: 128, pattern: "^([\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*)$" },
      Value: { type: "string", max: 256, pattern: "^([\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*)$" },
    },
  },
};
const resourceArn: Shape = { type: "string", max: 256, pattern: "^arn:aws[a-z-]*:sagemaker:[a-z0-9-]*:[0-9]{12}:.+" };
const container: Shape = {
  type: "structure",
  members: {
    ContainerHostname: name("^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}"),
    Image: { type: "string", max: 255, pattern: "^[\\S]+" },
    Mode: { type: "string", enum: ["SingleModel", "MultiModel"] },
    ModelDataUrl: url,
    ModelDataSource: {
      type: "structure",
      members: {
        S3DataSource: {
          type: "structure",
          required: ["S3Uri", "S3DataType", "CompressionType"],
          members: {
            S3Uri: url,
            S3DataType: { type: "string", enum: ["S3Prefix", "S3Object"] },
            CompressionType: { type: "string", enum: ["None", "Gzip"] },
          },
        },
      },
    },
    Environment: {
      type: "map",
      max: 100,
      key: { type: "string", max: 1024, pattern: "^[a-zA-Z_][a-zA-Z0-9_]*" },
      value: { type: "string", max: 1024, pattern: "^[\\S\\s]*" },
    },
  },
};
const variant: StructureShape = {
  type: "structure",
  required: ["VariantName"],
  members: {
    VariantName: ENTITY_NAME,
    ModelName: MODEL_NAME,
    InitialInstanceCount: { type: "integer", min: 1 },
    InstanceType: instanceType,
    InstancePools: {
      type: "list",
      min: 1,
      max: 5,
      member: {
        type: "structure",
        required: ["InstanceType", "Priority"],
        members: {
          InstanceType: instanceType,
          ModelNameOverride: MODEL_NAME,
          Priority: { type: "integer", min: 1, max: 5 },
        },
      },
    },
    VariantInstanceProvisionTimeoutInSeconds: { type: "integer", min: 300, max: 3600 },
    InitialVariantWeight: { type: "float", min: 0 },
    VolumeSizeInGB: { type: "integer", min: 1, max: 512 },
    ModelDataDownloadTimeoutInSeconds: { type: "integer", min: 60, max: 3600 },
    ContainerStartupHealthCheckTimeoutInSeconds: { type: "integer", min: 60, max: 3600 },
    EnableSSMAccess: { type: "boolean" },
    InferenceAmiVersion: { type: "string", enum: Object.values(ProductionVariantInferenceAmiVersion) },
  },
};

/** AsyncInferenceOutputConfig's S3 paths and AsyncInferenceNotificationConfig's topics, as the reference states them. */
const asyncS3Path: Shape = { type: "string", max: 512, pattern: "^(https|s3)://([^/])/?(.*)$" };
const snsTopicArn: Shape = {
  type: "string",
  max: 2048,
  pattern: "^arn:aws[a-z\\-]*:sns:[a-z0-9\\-]*:[0-9]{12}:[a-zA-Z0-9_.-]+$",
};
const asyncInferenceConfig: StructureShape = {
  type: "structure",
  required: ["OutputConfig"],
  members: {
    OutputConfig: {
      type: "structure",
      members: {
        KmsKeyId: { type: "string", max: 2048, pattern: "^[a-zA-Z0-9:/_-]*$" },
        S3OutputPath: asyncS3Path,
        S3FailurePath: asyncS3Path,
        NotificationConfig: {
          type: "structure",
          members: {
            SuccessTopic: snsTopicArn,
            ErrorTopic: snsTopicArn,
            IncludeInferenceResponseIn: {
              type: "list",
              max: 2,
              member: { type: "string", enum: ["SUCCESS_NOTIFICATION_TOPIC", "ERROR_NOTIFICATION_TOPIC"] },
            },
          },
        },
      },
    },
    ClientConfig: {
      type: "structure",
      members: { MaxConcurrentInvocationsPerInstance: { type: "integer", min: 1, max: 1000 } },
    },
  },
};

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

const byName = (member: string, shape: Shape): StructureShape => ({
  type: "structure",
  required: [member],
  members: { [member]: shape },
});

const kmsKey: Shape = { type: "string", max: 2048, pattern: "^[a-zA-Z0-9:/_-]*" };
const s3Uri: Shape = { type: "string", max: 1024, pattern: "^(https|s3)://([^/]+)/?(.*)$" };
const mediaType: Shape = { type: "string", max: 256, pattern: ".*" };
const transformInput: StructureShape = {
  type: "structure",
  required: ["DataSource"],
  members: {
    DataSource: {
      type: "structure",
      required: ["S3DataSource"],
      members: {
        S3DataSource: {
          type: "structure",
          required: ["S3DataType", "S3Uri"],
          members: { S3DataType: { type: "string", enum: Object.values(S3DataType) }, S3Uri: s3Uri },
        },
      },
    },
    ContentType: mediaType,
    CompressionType: { type: "string", enum: Object.values(CompressionType) },
    SplitType: { type: "string", enum: Object.values(SplitType) },
  },
};
const timeRange = (prefix: string): Record<string, Shape> => ({
  [`${prefix}After`]: { type: "timestamp" },
  [`${prefix}Before`]: { type: "timestamp" },
});

/** Each operation's input shape, as the service model defines the members local mode reads. */
export const sageMakerInputs: Record<string, StructureShape> = {
  CreateModel: {
    type: "structure",
    required: ["ModelName"],
    members: {
      ModelName: MODEL_NAME,
      PrimaryContainer: container,
      Containers: { type: "list", max: 15, member: container },
      ExecutionRoleArn: {
        type: "string",
        min: 20,
        max: 2048,
        pattern: "^arn:aws[a-z\\-]*:iam::\\d{12}:role/?[a-zA-Z_0-9+=,.@\\-_/]+",
      },
      Tags: tags,
      EnableNetworkIsolation: { type: "boolean" },
    },
  },
  DescribeModel: byName("ModelName", MODEL_NAME),
  DeleteModel: byName("ModelName", MODEL_NAME),
  CreateEndpointConfig: {
    type: "structure",
    required: ["EndpointConfigName", "ProductionVariants"],
    members: {
      EndpointConfigName: ENTITY_NAME,
      ProductionVariants: { type: "list", min: 1, max: 10, member: variant },
      AsyncInferenceConfig: asyncInferenceConfig,
      Tags: tags,
      KmsKeyId: { type: "string", max: 2048, pattern: "^[a-zA-Z0-9:/_-]*" },
    },
  },
  DescribeEndpointConfig: byName("EndpointConfigName", ENTITY_NAME),
  DeleteEndpointConfig: byName("EndpointConfigName", ENTITY_NAME),
  CreateEndpoint: {
    type: "structure",
    required: ["EndpointName", "EndpointConfigName"],
    members: { EndpointName: ENTITY_NAME, EndpointConfigName: ENTITY_NAME, Tags: tags },
  },
  DescribeEndpoint: byName("EndpointName", ENTITY_NAME),
  DeleteEndpoint: byName("EndpointName", ENTITY_NAME),
  ListEndpoints: {
    type: "structure",
    members: {
      SortBy: { type: "string", enum: Object.values(EndpointSortKey) },
      SortOrder: { type: "string", enum: Object.values(OrderKey) },
      NextToken: { type: "string", max: 8192 },
      MaxResults: { type: "integer", min: 1, max: 100 },
      NameContains: { type: "string", max: 63, pattern: "^[a-zA-Z0-9-]+" },
      CreationTimeBefore: { type: "timestamp" },
      CreationTimeAfter: { type: "timestamp" },
      StatusEquals: { type: "string", enum: Object.values(EndpointStatus) },
    },
  },
  UpdateEndpointWeightsAndCapacities: {
    type: "structure",
    required: ["EndpointName", "DesiredWeightsAndCapacities"],
    members: {
      EndpointName: ENTITY_NAME,
      DesiredWeightsAndCapacities: {
        type: "list",
        min: 1,
        member: {
          type: "structure",
          required: ["VariantName"],
          members: {
            VariantName: ENTITY_NAME,
            DesiredWeight: { type: "float", min: 0 },
            DesiredInstanceCount: { type: "integer", min: 0 },
          },
        },
      },
    },
  },
  UpdateEndpoint: {
    type: "structure",
    required: ["EndpointName", "EndpointConfigName"],
    members: {
      EndpointName: ENTITY_NAME,
      EndpointConfigName: ENTITY_NAME,
      RetainAllVariantProperties: { type: "boolean" },
      ExcludeRetainedVariantProperties: excludedVariantPropertiesShape,
      DeploymentConfig: deploymentConfigShape,
      RetainDeploymentConfig: { type: "boolean" },
    },
  },
  CreateTransformJob: {
    type: "structure",
    required: ["TransformJobName", "ModelName", "TransformInput", "TransformOutput", "TransformResources"],
    members: {
      TransformJobName: ENTITY_NAME,
      ModelName: MODEL_NAME,
      MaxConcurrentTransforms: { type: "integer", min: 0 },
      ModelClientConfig: {
        type: "structure",
        members: {
          InvocationsTimeoutInSeconds: { type: "integer", min: 1, max: 3600 },
          InvocationsMaxRetries: { type: "integer", min: 0, max: 3 },
        },
      },
      MaxPayloadInMB: { type: "integer", min: 0 },
      BatchStrategy: { type: "string", enum: Object.values(BatchStrategy) },
      Environment: {
        type: "map",
        max: 16,
        key: { type: "string", max: 1024, pattern: "^[a-zA-Z_][a-zA-Z0-9_]{0,1023}" },
        value: { type: "string", max: 10240, pattern: "^[\\S\\s]*" },
      },
      TransformInput: transformInput,
      TransformOutput: {
        type: "structure",
        required: ["S3OutputPath"],
        members: {
          S3OutputPath: s3Uri,
          Accept: mediaType,
          AssembleWith: { type: "string", enum: Object.values(AssemblyType) },
          KmsKeyId: kmsKey,
        },
      },
      TransformResources: {
        type: "structure",
        required: ["InstanceType", "InstanceCount"],
        members: {
          InstanceType: { type: "string", enum: Object.values(TransformInstanceType) },
          InstanceCount: { type: "integer", min: 1 },
          VolumeKmsKeyId: kmsKey,
        },
      },
      DataProcessing: {
        type: "structure",
        members: {
          InputFilter: { type: "string", max: 63 },
          OutputFilter: { type: "string", max: 63 },
          JoinSource: { type: "string", enum: Object.values(JoinSource) },
        },
      },
      Tags: tags,
    },
  },
  DescribeTransformJob: byName("TransformJobName", ENTITY_NAME),
  StopTransformJob: byName("TransformJobName", ENTITY_NAME),
  ListTransformJobs: {
    type: "structure",
    members: {
      ...timeRange("CreationTime"),
      ...timeRange("LastModifiedTime"),
      NameContains: { type: "string", max: 63, pattern: "[a-zA-Z0-9\\-]+" },
      StatusEquals: { type: "string", enum: Object.values(TransformJobStatus) },
      SortBy: { type: "string", enum: Object.values(SortBy) },
      SortOrder: { type: "string", enum: Object.values(SortOrder) },
      NextToken: { type: "string", max: 8192 },
      MaxResults: { type: "integer", min: 1, max: 100 },
    },
  },
  AddTags: { type: "structure", required: ["ResourceArn", "Tags"], members: { ResourceArn: resourceArn, Tags: tags } },
  DeleteTags: {
    type: "structure",
    required: ["ResourceArn", "TagKeys"],
    members: {
      ResourceArn: resourceArn,
      TagKeys: { type: "list", min: 1, max: 50, member: { type: "string", min: 1, max: 128 } },
    },
  },
  ListTags: {
    type: "structure",
    required: ["ResourceArn"],
    members: {
      ResourceArn: resourceArn,
      NextToken: { type: "string", max: 8192 },
      MaxResults: { type: "integer", min: 50 },
    },
  },
};

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
    const withInstanceStorage = types.find(hasInstanceStorage);
    if (variant.VolumeSizeInGB !== undefined && withInstanceStorage) {
      // Instance types with NVMe instance storage take no EBS volume (contract/endpoints/storage-volume.ts).
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

const notLocal = (what: string) => validation(`${what} is not served by the local control plane.`);

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
    throw notLocal(`S3DataType ${source.S3DataType}`);
  }
  for (const uri of [source.S3Uri, input.TransformOutput.S3OutputPath]) {
    if (!uri.startsWith("s3://")) throw notLocal(`The HTTPS location ${uri} (use its s3:// URI)`);
  }
  const split = input.TransformInput.SplitType;
  if (split === "RecordIO" || split === "TFRecord") throw notLocal(`SplitType ${split}`);
  for (const [name, filter] of Object.entries({ ...input.DataProcessing })) {
    if ((name === "InputFilter" || name === "OutputFilter") && filter !== "$") {
      throw notLocal(`DataProcessing.${name} other than "$" (JSONPath ${filter})`);
    }
  }
  if (input.DataCaptureConfig !== undefined) throw notLocal("DataCaptureConfig");
}
