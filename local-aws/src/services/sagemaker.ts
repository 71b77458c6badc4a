import type {
  AddTagsCommandInput,
  AddTagsCommandOutput,
  CreateEndpointCommandInput,
  CreateEndpointCommandOutput,
  CreateEndpointConfigCommandInput,
  CreateEndpointConfigCommandOutput,
  CreateModelCommandInput,
  CreateModelCommandOutput,
  DeleteEndpointCommandInput,
  DeleteEndpointCommandOutput,
  DeleteEndpointConfigCommandInput,
  DeleteEndpointConfigCommandOutput,
  DeleteModelCommandInput,
  DeleteModelCommandOutput,
  DeleteTagsCommandInput,
  DeleteTagsCommandOutput,
  DescribeEndpointCommandInput,
  DescribeEndpointCommandOutput,
  DescribeEndpointConfigCommandInput,
  DescribeEndpointConfigCommandOutput,
  DescribeModelCommandInput,
  DescribeModelCommandOutput,
  ListEndpointsCommandInput,
  ListEndpointsCommandOutput,
  ListTagsCommandInput,
  ListTagsCommandOutput,
  UpdateEndpointCommandInput,
  UpdateEndpointCommandOutput,
  UpdateEndpointWeightsAndCapacitiesCommandInput,
  UpdateEndpointWeightsAndCapacitiesCommandOutput,
} from "@aws-sdk/client-sagemaker";
import type { AlarmEngine } from "../alarms/alarm-engine.ts";
import type { EndpointDeployments } from "../endpoints/endpoint-deployment.ts";
import type { EndpointRunner } from "../endpoints/endpoint-runner.ts";
import type { ModelPackageStore } from "../model-registry/model-package-store.ts";
import {
  arnOf,
  type ContainerDefinition,
  type DataCaptureConfigDoc,
  type EndpointRecord,
  type ProductionVariantDoc,
  type SageMakerStore,
  type VariantState,
} from "../sagemaker-store.ts";
import type { TransformRunner } from "../transform/transform-runner.ts";
import type { TransformStore } from "../transform/transform-store.ts";
import { validation } from "../wire/aws-error.ts";
import { sageMakerInputShapes } from "../wire/generated/sagemaker.ts";
import { withInputShapes } from "../wire/input-shapes.ts";
import type { JsonService } from "../wire/json-rpc.ts";
import { notServedLocally, servingOnly } from "../wire/served-members.ts";
import { asJsonOperations, type TypedOperation } from "../wire/typed-operations.ts";
import { checkUpdateOfScaledVariants } from "./application-auto-scaling-rules.ts";
import { checkUpdateEndpoint } from "./deployment-config-rules.ts";
import { page } from "./paging.ts";
import { modelRegistryOperations, modelVersionContainer } from "./sagemaker-model-registry.ts";
import {
  checkAssumableRole,
  checkContainers,
  checkNameIsFree,
  checkProductionVariants,
  checkShadowUpdate,
  checkShadowVariants,
} from "./sagemaker-rules.ts";
import { sageMakerServedMembers } from "./sagemaker-served.ts";
import { transformOperations } from "./sagemaker-transform.ts";

/** The SageMaker operations this module serves, each typed with the SDK's own input and output. */
type SageMakerOperations = {
  CreateModel: TypedOperation<CreateModelCommandInput, CreateModelCommandOutput>;
  DescribeModel: TypedOperation<DescribeModelCommandInput, DescribeModelCommandOutput>;
  DeleteModel: TypedOperation<DeleteModelCommandInput, DeleteModelCommandOutput>;
  CreateEndpointConfig: TypedOperation<CreateEndpointConfigCommandInput, CreateEndpointConfigCommandOutput>;
  DescribeEndpointConfig: TypedOperation<DescribeEndpointConfigCommandInput, DescribeEndpointConfigCommandOutput>;
  DeleteEndpointConfig: TypedOperation<DeleteEndpointConfigCommandInput, DeleteEndpointConfigCommandOutput>;
  CreateEndpoint: TypedOperation<CreateEndpointCommandInput, CreateEndpointCommandOutput>;
  DescribeEndpoint: TypedOperation<DescribeEndpointCommandInput, DescribeEndpointCommandOutput>;
  UpdateEndpoint: TypedOperation<UpdateEndpointCommandInput, UpdateEndpointCommandOutput>;
  ListEndpoints: TypedOperation<ListEndpointsCommandInput, ListEndpointsCommandOutput>;
  UpdateEndpointWeightsAndCapacities: TypedOperation<
    UpdateEndpointWeightsAndCapacitiesCommandInput,
    UpdateEndpointWeightsAndCapacitiesCommandOutput
  >;
  DeleteEndpoint: TypedOperation<DeleteEndpointCommandInput, DeleteEndpointCommandOutput>;
  AddTags: TypedOperation<AddTagsCommandInput, AddTagsCommandOutput>;
  DeleteTags: TypedOperation<DeleteTagsCommandInput, DeleteTagsCommandOutput>;
  ListTags: TypedOperation<ListTagsCommandInput, ListTagsCommandOutput>;
};

const TRANSITIONAL = new Set(["Creating", "Updating", "Deleting"]);

function describeVariants(endpoint: EndpointRecord, variants: VariantState[]) {
  if (variants.length === 0) return undefined;
  return variants.map((variant) => ({
    ...variant,
    VariantStatus:
      endpoint.status === "Updating" ? [{ Status: "Updating" as const, StartTime: endpoint.updatedAt }] : undefined,
  }));
}

/** The new fleet's instance counts: the config's, or the serving ones with RetainAllVariantProperties. */
function newFleetCounts(input: UpdateEndpointCommandInput, endpoint: EndpointRecord, variants: ProductionVariantDoc[]) {
  const excluded = new Set((input.ExcludeRetainedVariantProperties ?? []).map((p) => p.VariantPropertyType));
  const retain = input.RetainAllVariantProperties === true && !excluded.has("DesiredInstanceCount");
  return new Map(
    variants.map((v) => {
      const serving = endpoint.variants.find((s) => s.VariantName === v.VariantName)?.DesiredInstanceCount;
      return [v.VariantName, (retain ? serving : undefined) ?? v.InitialInstanceCount ?? 1];
    }),
  );
}

/**
 * SageMaker's control plane (AWS JSON 1.1) for models, endpoint configurations, endpoints, transform jobs and tags;
 * UpdateEndpoint hands accepted deployments to `deployments`, which reads rollback alarms from `alarms`; `scaledVariants` names an
 * endpoint's variants registered with Application Auto Scaling.
 */
/** DescribeEndpoint's DataCaptureConfigSummary of the configuration it runs. */
function captureSummary(config: DataCaptureConfigDoc | undefined) {
  if (!config) return undefined;
  const enabled = config.EnableCapture !== false;
  return {
    EnableCapture: enabled,
    CaptureStatus: enabled ? ("Started" as const) : ("Stopped" as const),
    CurrentSamplingPercentage: config.InitialSamplingPercentage,
    DestinationS3Uri: config.DestinationS3Uri,
    // Required by the summary's shape; local mode serves no customer KMS key (CreateEndpointConfig refuses one).
    KmsKeyId: "",
  };
}

export function sageMakerService(
  store: SageMakerStore,
  runner: EndpointRunner,
  deployments: EndpointDeployments,
  alarms: AlarmEngine,
  jobs: TransformStore,
  transforms: TransformRunner,
  scaledVariants: (endpoint: string) => string[],
  modelPackages: ModelPackageStore,
  /** Whether SageMaker can assume the role in the local account (only the stack's execution role). */
  assumableRole: (roleArn: string) => boolean,
): JsonService {
  return {
    target: "SageMaker",
    signingName: "sagemaker",
    version: "1.1",
    operations: withInputShapes(
      "SageMaker",
      sageMakerInputShapes,
      servingOnly("SageMaker", sageMakerServedMembers, {
        ...transformOperations(store, jobs, transforms),
        ...modelRegistryOperations(modelPackages, store),
        ...asJsonOperations(
          endpointOperations(store, runner, deployments, alarms, scaledVariants, modelPackages, assumableRole),
        ),
      }),
    ),
  };
}

/** Models, endpoint configurations, endpoints and tags. */
function endpointOperations(
  store: SageMakerStore,
  runner: EndpointRunner,
  deployments: EndpointDeployments,
  alarms: AlarmEngine,
  scaledVariants: (endpoint: string) => string[],
  modelPackages: ModelPackageStore,
  assumableRole: (roleArn: string) => boolean,
): SageMakerOperations {
  return {
    CreateModel(input, { region }) {
      const name = input.ModelName;
      const arn = arnOf(region, "model", name);
      checkNameIsFree("model", arn, store.model(name));
      const fromPackage = (container: ContainerDefinition | undefined) =>
        container?.ModelPackageName ? modelVersionContainer(modelPackages, container, region) : container;
      const containers = {
        PrimaryContainer: fromPackage(input.PrimaryContainer),
        Containers: input.Containers?.map((container) => fromPackage(container)!),
      };
      checkContainers(containers);
      checkAssumableRole(input.ExecutionRoleArn, assumableRole);
      store.insertModel({
        ModelName: name,
        ModelArn: arn,
        ...containers,
        ExecutionRoleArn: input.ExecutionRoleArn,
        EnableNetworkIsolation: input.EnableNetworkIsolation === true,
        CreationTime: Date.now() / 1000,
      });
      store.addTags(arn, input.Tags);
      return { ModelArn: arn };
    },
    DescribeModel(input, { region }) {
      return store.requireModel(input.ModelName, region);
    },
    DeleteModel(input, { region }) {
      const model = store.requireModel(input.ModelName, region);
      store.deleteModel(model.ModelName);
      store.deleteTags(model.ModelArn);
      return {};
    },
    CreateEndpointConfig(input, { region }) {
      const name = input.EndpointConfigName;
      const arn = arnOf(region, "endpoint-config", name);
      checkNameIsFree("endpoint-config", arn, store.endpointConfig(name));
      checkProductionVariants(input.ProductionVariants);
      checkShadowVariants(input);
      // checkProductionVariants refused a variant without a ModelName (inference components are not served).
      const variants = input.ProductionVariants as ProductionVariantDoc[];
      const shadows = input.ShadowProductionVariants as ProductionVariantDoc[] | undefined;
      for (const variant of [...variants, ...(shadows ?? [])]) {
        store.requireModel(variant.ModelName, region);
        for (const pool of variant.InstancePools ?? []) {
          if (pool.ModelNameOverride) store.requireModel(pool.ModelNameOverride, region);
        }
      }
      store.insertEndpointConfig({
        EndpointConfigName: name,
        EndpointConfigArn: arn,
        ProductionVariants: variants,
        ShadowProductionVariants: shadows,
        AsyncInferenceConfig: input.AsyncInferenceConfig,
        DataCaptureConfig: input.DataCaptureConfig,
        CreationTime: Date.now() / 1000,
      });
      store.addTags(arn, input.Tags);
      return { EndpointConfigArn: arn };
    },
    DescribeEndpointConfig(input, { region }) {
      return store.requireEndpointConfig(input.EndpointConfigName, region);
    },
    DeleteEndpointConfig(input, { region }) {
      const config = store.requireEndpointConfig(input.EndpointConfigName, region);
      store.deleteEndpointConfig(config.EndpointConfigName);
      store.deleteTags(config.EndpointConfigArn);
      return {};
    },
    CreateEndpoint(input, { region }) {
      const name = input.EndpointName;
      const arn = arnOf(region, "endpoint", name);
      checkNameIsFree("endpoint", arn, store.endpoint(name));
      const config = store.requireEndpointConfig(input.EndpointConfigName, region);
      const now = Date.now() / 1000;
      store.insertEndpoint({
        name,
        configName: config.EndpointConfigName,
        status: "Creating",
        failureReason: null,
        variants: [],
        deployment: {},
        createdAt: now,
        updatedAt: now,
      });
      store.addTags(arn, input.Tags);
      void runner.create(name);
      return { EndpointArn: arn };
    },
    DescribeEndpoint(input, { region }) {
      const endpoint = store.requireEndpoint(input.EndpointName);
      return {
        EndpointName: endpoint.name,
        EndpointArn: arnOf(region, "endpoint", endpoint.name),
        EndpointConfigName: endpoint.configName,
        ProductionVariants: describeVariants(endpoint, endpoint.variants),
        ShadowProductionVariants: describeVariants(endpoint, endpoint.shadowVariants ?? []),
        EndpointStatus: endpoint.status,
        FailureReason: endpoint.failureReason ?? undefined,
        CreationTime: endpoint.createdAt,
        LastModifiedTime: endpoint.updatedAt,
        LastDeploymentConfig: endpoint.deployment.lastDeploymentConfig,
        PendingDeploymentSummary: endpoint.deployment.pending,
        DataCaptureConfig: captureSummary(store.endpointConfig(endpoint.configName)?.DataCaptureConfig),
      };
    },
    UpdateEndpoint(input, { region }) {
      const endpoint = store.requireEndpoint(input.EndpointName);
      const arn = arnOf(region, "endpoint", endpoint.name);
      const config = store.requireEndpointConfig(input.EndpointConfigName, region);
      const counts = newFleetCounts(input, endpoint, config.ProductionVariants);
      const deploymentConfig =
        input.DeploymentConfig ??
        (input.RetainDeploymentConfig === true ? endpoint.deployment.lastDeploymentConfig : undefined);
      checkShadowUpdate(store.endpointConfig(endpoint.configName), config, deploymentConfig);
      const alarmNames = (deploymentConfig?.AutoRollbackConfiguration?.Alarms ?? []).flatMap((a) =>
        a.AlarmName ? [a.AlarmName] : [],
      );
      checkUpdateEndpoint({
        arn,
        endpoint,
        currentVariants: store.endpointConfig(endpoint.configName)?.ProductionVariants,
        newVariants: config.ProductionVariants,
        instanceCounts: counts,
        deploymentConfig,
        missingAlarms: alarmNames.filter((name) => !alarms.get(name)),
      });
      checkUpdateOfScaledVariants(
        endpoint.name,
        scaledVariants(endpoint.name),
        store.endpointConfig(endpoint.configName)?.ProductionVariants ?? [],
        config.ProductionVariants,
      );
      const now = Date.now() / 1000;
      store.updateEndpoint(endpoint.name, {
        status: "Updating",
        failureReason: null,
        deployment: {
          lastDeploymentConfig: deploymentConfig,
          pending: { EndpointConfigName: config.EndpointConfigName, StartTime: now, ProductionVariants: [] },
        },
      });
      void deployments.start({
        endpoint: endpoint.name,
        fromConfig: endpoint.configName,
        toConfig: config.EndpointConfigName,
        deploymentConfig,
        counts,
      });
      return { EndpointArn: arn };
    },
    ListEndpoints(input, { region }) {
      const sortBy = input.SortBy ?? "CreationTime";
      const ascending = input.SortOrder === "Ascending";
      const nameContains = input.NameContains?.toLowerCase() ?? "";
      const endpoints = store
        .endpoints()
        .filter((e) => e.name.toLowerCase().includes(nameContains))
        .filter((e) => input.StatusEquals === undefined || e.status === input.StatusEquals)
        .filter((e) => typeof input.CreationTimeAfter !== "number" || e.createdAt > input.CreationTimeAfter)
        .filter((e) => typeof input.CreationTimeBefore !== "number" || e.createdAt < input.CreationTimeBefore)
        .filter((e) => typeof input.LastModifiedTimeAfter !== "number" || e.updatedAt > input.LastModifiedTimeAfter)
        .filter((e) => typeof input.LastModifiedTimeBefore !== "number" || e.updatedAt < input.LastModifiedTimeBefore)
        .sort((a, b) => {
          const order =
            sortBy === "Name"
              ? a.name.localeCompare(b.name)
              : sortBy === "Status"
                ? a.status.localeCompare(b.status)
                : a.createdAt - b.createdAt || a.name.localeCompare(b.name);
          return ascending ? order : -order;
        });
      const { slice, nextToken } = page(endpoints, input, 10);
      return {
        Endpoints: slice.map((e) => ({
          EndpointName: e.name,
          EndpointArn: arnOf(region, "endpoint", e.name),
          CreationTime: e.createdAt,
          LastModifiedTime: e.updatedAt,
          EndpointStatus: e.status,
        })),
        NextToken: nextToken,
      };
    },
    UpdateEndpointWeightsAndCapacities(input, { region }) {
      const endpoint = store.requireEndpoint(input.EndpointName);
      const arn = arnOf(region, "endpoint", endpoint.name);
      if (endpoint.status !== "InService") throw validation(`Cannot update in-progress endpoint "${arn}".`);
      const desired = input.DesiredWeightsAndCapacities;
      for (const change of desired) {
        if (endpoint.shadowVariants?.some((v) => v.VariantName === change.VariantName)) {
          throw notServedLocally(`UpdateEndpointWeightsAndCapacities of the shadow variant "${change.VariantName}"`);
        }
        if (!endpoint.variants.some((v) => v.VariantName === change.VariantName)) {
          throw validation(`The variant(s) "[${change.VariantName}]" are not present on endpoint "${arn}".`);
        }
        if (change.DesiredInstanceCount === 0) {
          throw validation("DesiredInstanceCount can be 0 only for endpoints with inference components.");
        }
      }
      store.updateEndpoint(endpoint.name, { status: "Updating" });
      void runner.update(endpoint.name, desired);
      return { EndpointArn: arn };
    },
    DeleteEndpoint(input, { region }) {
      const endpoint = store.requireEndpoint(input.EndpointName);
      const arn = arnOf(region, "endpoint", endpoint.name);
      if (TRANSITIONAL.has(endpoint.status)) {
        throw validation(`Cannot delete endpoint "${arn}" while it is in ${endpoint.status} status.`);
      }
      store.updateEndpoint(endpoint.name, { status: "Deleting" });
      store.deleteTags(arn);
      void runner.delete(endpoint.name);
      return {};
    },
    AddTags(input) {
      const arn = input.ResourceArn;
      if (!store.exists(arn)) throw validation(`Resource ${arn} does not exist.`);
      store.addTags(arn, input.Tags);
      return { Tags: store.tags(arn) };
    },
    DeleteTags(input) {
      const arn = input.ResourceArn;
      if (!store.exists(arn)) throw validation(`Resource ${arn} does not exist.`);
      store.deleteTags(arn, input.TagKeys);
      return {};
    },
    ListTags(input) {
      const arn = input.ResourceArn;
      if (!store.exists(arn)) throw validation(`Resource ${arn} does not exist.`);
      const { slice, nextToken } = page(store.tags(arn), input, 50);
      return { Tags: slice, NextToken: nextToken };
    },
  };
}
