import type { AuthorizationQuery } from "../evaluate.ts";
import {
  type OperationAuthorization,
  type RequestFacts,
  requestTagContext,
  resourceTagContext,
  str,
  tagListToMap,
  tagOnCreate,
} from "./facts.ts";
import { modelRegistryAuthorization } from "./sagemaker-model-registry.ts";

type SageMakerKind = "model" | "endpoint-config" | "endpoint" | "transform-job";

/** `arn:aws:sagemaker:<region>:<account>:<kind>/<name>`, the name lower-cased as SageMaker's ARNs are. */
export function sageMakerArn(facts: RequestFacts, kind: SageMakerKind, name: string): string {
  return `arn:aws:sagemaker:${facts.region}:${facts.accountId}:${kind}/${name.toLowerCase()}`;
}

/**
 * The model packages a CreateModel deploys (`ModelPackageName` of its PrimaryContainer and of each of Containers), as
 * ARNs: a version's ARN as given, a bare name as the unversioned package `model-package/<name>` (case kept). SageMaker authorises
 * CreateModel on each of them too: the registry guide's "Deploy a Model Version from a Different Account" grants
 * `sagemaker:CreateModel` on `model-package/<group>/*`, though the Service Authorization Reference lists `model` only.
 */
export function deployedModelPackages(input: Record<string, unknown>, facts: RequestFacts): string[] {
  const containers = [input.PrimaryContainer, ...(Array.isArray(input.Containers) ? input.Containers : [])];
  const packages = new Set<string>();
  for (const container of containers as { ModelPackageName?: unknown }[]) {
    const name = container?.ModelPackageName;
    if (typeof name !== "string" || name === "") continue;
    packages.add(
      name.startsWith("arn:") ? name : `arn:aws:sagemaker:${facts.region}:${facts.accountId}:model-package/${name}`,
    );
  }
  return [...packages];
}

/** An action on an existing resource: its ARN and the resource's tags. */
function onExisting(action: string, kind: SageMakerKind, nameField: string): OperationAuthorization {
  return (input, facts) => {
    const resource = sageMakerArn(facts, kind, str(input[nameField]));
    return [{ action, resource, context: resourceTagContext(facts.sageMakerTags(resource), "sagemaker") }];
  };
}

interface VariantInput {
  ModelName?: unknown;
  InstanceType?: unknown;
  InstancePools?: { InstanceType?: unknown; ModelNameOverride?: unknown }[];
}

function variantsOf(input: Record<string, unknown>): VariantInput[] {
  return Array.isArray(input.ProductionVariants) ? (input.ProductionVariants as VariantInput[]) : [];
}

/** SageMaker control plane: the Service Authorization Reference's resources and condition keys per operation. */
export const sageMakerAuthorization: Record<string, OperationAuthorization> = {
  ...modelRegistryAuthorization,
  CreateModel(input, facts) {
    const model = sageMakerArn(facts, "model", str(input.ModelName));
    const vpc = input.VpcConfig as { Subnets?: string[]; SecurityGroupIds?: string[] } | undefined;
    const queries: AuthorizationQuery[] = [
      {
        action: "sagemaker:CreateModel",
        resource: model,
        context: {
          ...requestTagContext(tagListToMap(input.Tags)),
          ...(typeof input.EnableNetworkIsolation === "boolean"
            ? { "sagemaker:NetworkIsolation": String(input.EnableNetworkIsolation) }
            : {}),
          ...(vpc
            ? { "sagemaker:VpcSubnets": vpc.Subnets ?? [], "sagemaker:VpcSecurityGroupIds": vpc.SecurityGroupIds ?? [] }
            : {}),
        },
      },
      ...deployedModelPackages(input, facts).map((modelPackage) => ({
        action: "sagemaker:CreateModel",
        resource: modelPackage,
        context: resourceTagContext(facts.sageMakerTags(modelPackage), "sagemaker"),
      })),
      ...tagOnCreate("sagemaker:CreateModel", model, input),
    ];
    if (typeof input.ExecutionRoleArn === "string") {
      queries.push({
        action: "iam:PassRole",
        resource: input.ExecutionRoleArn,
        context: { "iam:PassedToService": "sagemaker.amazonaws.com", "iam:AssociatedResourceArn": model },
      });
    }
    return queries;
  },
  DescribeModel: onExisting("sagemaker:DescribeModel", "model", "ModelName"),
  DeleteModel: onExisting("sagemaker:DeleteModel", "model", "ModelName"),
  CreateEndpointConfig(input, facts) {
    const config = sageMakerArn(facts, "endpoint-config", str(input.EndpointConfigName));
    const variants = variantsOf(input);
    const instanceTypes = new Set<string>();
    const models = new Set<string>();
    for (const variant of variants) {
      if (typeof variant.InstanceType === "string") instanceTypes.add(variant.InstanceType);
      if (typeof variant.ModelName === "string") models.add(sageMakerArn(facts, "model", variant.ModelName));
      for (const pool of variant.InstancePools ?? []) {
        if (typeof pool.InstanceType === "string") instanceTypes.add(pool.InstanceType);
        if (typeof pool.ModelNameOverride === "string")
          models.add(sageMakerArn(facts, "model", pool.ModelNameOverride));
      }
    }
    return [
      {
        action: "sagemaker:CreateEndpointConfig",
        resource: config,
        context: {
          ...requestTagContext(tagListToMap(input.Tags)),
          "sagemaker:InstanceTypes": [...instanceTypes],
          "sagemaker:ModelArn": [...models],
          ...(typeof input.KmsKeyId === "string" ? { "sagemaker:VolumeKmsKeyArn": input.KmsKeyId } : {}),
        },
      },
      ...tagOnCreate("sagemaker:CreateEndpointConfig", config, input),
    ];
  },
  DescribeEndpointConfig: onExisting("sagemaker:DescribeEndpointConfig", "endpoint-config", "EndpointConfigName"),
  DeleteEndpointConfig: onExisting("sagemaker:DeleteEndpointConfig", "endpoint-config", "EndpointConfigName"),
  CreateEndpoint(input, facts) {
    const endpoint = sageMakerArn(facts, "endpoint", str(input.EndpointName));
    const config = sageMakerArn(facts, "endpoint-config", str(input.EndpointConfigName));
    const tags = requestTagContext(tagListToMap(input.Tags));
    return [
      { action: "sagemaker:CreateEndpoint", resource: endpoint, context: tags },
      {
        action: "sagemaker:CreateEndpoint",
        resource: config,
        context: { ...tags, ...resourceTagContext(facts.sageMakerTags(config), "sagemaker") },
      },
      ...tagOnCreate("sagemaker:CreateEndpoint", endpoint, input),
    ];
  },
  DescribeEndpoint: onExisting("sagemaker:DescribeEndpoint", "endpoint", "EndpointName"),
  UpdateEndpoint: (input, facts) => [
    ...onExisting("sagemaker:UpdateEndpoint", "endpoint", "EndpointName")(input, facts),
    ...onExisting("sagemaker:UpdateEndpoint", "endpoint-config", "EndpointConfigName")(input, facts),
  ],
  DeleteEndpoint: onExisting("sagemaker:DeleteEndpoint", "endpoint", "EndpointName"),
  UpdateEndpointWeightsAndCapacities: onExisting(
    "sagemaker:UpdateEndpointWeightsAndCapacities",
    "endpoint",
    "EndpointName",
  ),
  ListEndpoints: () => [{ action: "sagemaker:ListEndpoints", resource: "*", context: {} }],
  CreateTransformJob(input, facts) {
    const job = sageMakerArn(facts, "transform-job", str(input.TransformJobName));
    const resources = input.TransformResources as { InstanceType?: unknown; VolumeKmsKeyId?: unknown } | undefined;
    const output = input.TransformOutput as { KmsKeyId?: unknown } | undefined;
    return [
      {
        action: "sagemaker:CreateTransformJob",
        resource: job,
        context: {
          ...requestTagContext(tagListToMap(input.Tags)),
          "sagemaker:ModelArn": sageMakerArn(facts, "model", str(input.ModelName)),
          ...(typeof resources?.InstanceType === "string"
            ? { "sagemaker:InstanceTypes": [resources.InstanceType] }
            : {}),
          ...(typeof resources?.VolumeKmsKeyId === "string"
            ? { "sagemaker:VolumeKmsKeyArn": resources.VolumeKmsKeyId }
            : {}),
          ...(typeof output?.KmsKeyId === "string" ? { "sagemaker:OutputKmsKeyArn": output.KmsKeyId } : {}),
        },
      },
      ...tagOnCreate("sagemaker:CreateTransformJob", job, input),
    ];
  },
  DescribeTransformJob: onExisting("sagemaker:DescribeTransformJob", "transform-job", "TransformJobName"),
  StopTransformJob: onExisting("sagemaker:StopTransformJob", "transform-job", "TransformJobName"),
  ListTransformJobs: () => [{ action: "sagemaker:ListTransformJobs", resource: "*", context: {} }],
  AddTags(input, facts) {
    const resource = str(input.ResourceArn);
    return [
      {
        action: "sagemaker:AddTags",
        resource,
        context: {
          ...requestTagContext(tagListToMap(input.Tags)),
          ...resourceTagContext(facts.sageMakerTags(resource), "sagemaker"),
        },
      },
    ];
  },
  DeleteTags(input, facts) {
    const resource = str(input.ResourceArn);
    const keys = Array.isArray(input.TagKeys) ? (input.TagKeys as string[]) : [];
    return [
      {
        action: "sagemaker:DeleteTags",
        resource,
        context: { "aws:TagKeys": keys, ...resourceTagContext(facts.sageMakerTags(resource), "sagemaker") },
      },
    ];
  },
  ListTags(input, facts) {
    const resource = str(input.ResourceArn);
    return [
      {
        action: "sagemaker:ListTags",
        resource,
        context: resourceTagContext(facts.sageMakerTags(resource), "sagemaker"),
      },
    ];
  },
};

export type RuntimeOperation = "InvokeEndpoint" | "InvokeEndpointWithResponseStream" | "InvokeEndpointAsync";

/** SageMaker Runtime (REST): the endpoint from the path, `sagemaker:TargetModel` from its header. */
export function runtimeAuthorization(
  operation: RuntimeOperation,
  endpointName: string,
  targetModel: string | undefined,
  facts: RequestFacts,
): AuthorizationQuery[] {
  const resource = sageMakerArn(facts, "endpoint", endpointName);
  return [
    {
      action: `sagemaker:${operation}`,
      resource,
      context: {
        ...resourceTagContext(facts.sageMakerTags(resource), "sagemaker"),
        // The reference defines sagemaker:TargetModel for InvokeEndpoint only.
        ...(targetModel && operation === "InvokeEndpoint" ? { "sagemaker:TargetModel": targetModel } : {}),
      },
    },
  ];
}
