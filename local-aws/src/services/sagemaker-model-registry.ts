import type {
  CreateModelPackageCommandInput,
  CreateModelPackageCommandOutput,
  CreateModelPackageGroupCommandInput,
  CreateModelPackageGroupCommandOutput,
  DeleteModelPackageCommandInput,
  DeleteModelPackageCommandOutput,
  DescribeModelPackageCommandInput,
  DescribeModelPackageCommandOutput,
  DescribeModelPackageGroupCommandInput,
  DescribeModelPackageGroupCommandOutput,
  ListModelPackageGroupsCommandInput,
  ListModelPackageGroupsCommandOutput,
  ListModelPackagesCommandInput,
  ListModelPackagesCommandOutput,
  UpdateModelPackageCommandInput,
  UpdateModelPackageCommandOutput,
} from "@aws-sdk/client-sagemaker";
import {
  type ModelPackageDoc,
  type ModelPackageGroupDoc,
  type ModelPackageStore,
  modelPackageArn,
  modelPackageGroupArn,
} from "../model-registry/model-package-store.ts";
import type { ContainerDefinition, SageMakerStore } from "../sagemaker-store.ts";
import { validation } from "../wire/aws-error.ts";
import type { JsonOperation } from "../wire/json-rpc.ts";
import { LOCAL_ACCOUNT_ID } from "../wire/request.ts";
import { asJsonOperations, type TypedOperation } from "../wire/typed-operations.ts";
import {
  checkDeployable,
  checkInferenceSpecification,
  checkSingleContainer,
  checkVersionedPackage,
} from "./model-registry-rules.ts";
import { inTimeRange, page } from "./paging.ts";

type ModelRegistryOperations = {
  CreateModelPackageGroup: TypedOperation<CreateModelPackageGroupCommandInput, CreateModelPackageGroupCommandOutput>;
  DescribeModelPackageGroup: TypedOperation<
    DescribeModelPackageGroupCommandInput,
    DescribeModelPackageGroupCommandOutput
  >;
  ListModelPackageGroups: TypedOperation<ListModelPackageGroupsCommandInput, ListModelPackageGroupsCommandOutput>;
  CreateModelPackage: TypedOperation<CreateModelPackageCommandInput, CreateModelPackageCommandOutput>;
  DescribeModelPackage: TypedOperation<DescribeModelPackageCommandInput, DescribeModelPackageCommandOutput>;
  ListModelPackages: TypedOperation<ListModelPackagesCommandInput, ListModelPackagesCommandOutput>;
  UpdateModelPackage: TypedOperation<UpdateModelPackageCommandInput, UpdateModelPackageCommandOutput>;
  DeleteModelPackage: TypedOperation<DeleteModelPackageCommandInput, DeleteModelPackageCommandOutput>;
};

const GROUP_ARN = /^arn:aws[a-z-]*:sagemaker:([a-z0-9-]*):(\d{12}):model-package-group\/(.+)$/;
const VERSION_ARN = /^arn:aws[a-z-]*:sagemaker:([a-z0-9-]*):(\d{12}):model-package\/([^/]+)\/(\d+)$/;

/** A group named by name or ARN, once it exists in this account and Region. */
export function requireGroup(groups: ModelPackageStore, nameOrArn: string, region: string): ModelPackageGroupDoc {
  const match = GROUP_ARN.exec(nameOrArn);
  const name = match ? (match[3] ?? "") : nameOrArn;
  const here = !match || (match[1] === region && match[2] === LOCAL_ACCOUNT_ID);
  const group = here ? groups.group(name) : undefined;
  if (!group) throw validation(`Model Package Group ${modelPackageGroupArn(region, name)} does not exist.`);
  return group;
}

/** A model version named by its ARN (a bare name would be an unversioned package, which local mode has none of). */
export function requireVersion(groups: ModelPackageStore, nameOrArn: string, region: string): ModelPackageDoc {
  const match = VERSION_ARN.exec(nameOrArn);
  const here = match && match[1] === region && match[2] === LOCAL_ACCOUNT_ID;
  const version = here ? groups.version(match[3] ?? "", Number(match[4])) : undefined;
  if (!version) throw validation(`ModelPackage ${nameOrArn} does not exist.`);
  return version;
}

/**
 * A CreateModel container that names a model version (ContainerDefinition.ModelPackageName): the version's image,
 * artifact and environment (the container's own Environment added), once the version may be deployed.
 */
export function modelVersionContainer(
  groups: ModelPackageStore,
  container: ContainerDefinition,
  region: string,
): ContainerDefinition {
  if (
    container.Image !== undefined ||
    container.ModelDataUrl !== undefined ||
    container.ModelDataSource !== undefined
  ) {
    throw validation(
      "A container that names a ModelPackageName takes its Image and model data from the model package; do not give Image, ModelDataUrl or ModelDataSource with it.",
    );
  }
  const version = requireVersion(groups, container.ModelPackageName!, region);
  checkDeployable(version);
  const packaged = checkSingleContainer(version);
  return {
    ...container,
    ModelPackageName: version.ModelPackageArn,
    Image:
      packaged.ImageDigest && !packaged.Image?.includes("@")
        ? `${packaged.Image?.split(":")[0]}@${packaged.ImageDigest}`
        : packaged.Image,
    ModelDataUrl: packaged.ModelDataUrl,
    ModelDataSource: packaged.ModelDataSource,
    Environment:
      packaged.Environment || container.Environment ? { ...packaged.Environment, ...container.Environment } : undefined,
  };
}

function described(version: ModelPackageDoc) {
  return {
    ...version,
    ModelPackageName: version.ModelPackageGroupName,
    ModelPackageStatus: "Completed" as const,
    ModelPackageStatusDetails: { ValidationStatuses: [], ImageScanStatuses: [] },
    CertifyForMarketplace: false,
  };
}

function ordered<T>(
  items: T[],
  sortBy: string | undefined,
  order: string | undefined,
  name: (item: T) => string,
  at: (item: T) => number,
) {
  const direction = order === "Descending" ? -1 : 1;
  const compare = sortBy === "Name" ? (a: T, b: T) => name(a).localeCompare(name(b)) : (a: T, b: T) => at(a) - at(b);
  return [...items].sort((a, b) => direction * compare(a, b));
}

/** The Model Registry's operations (SageMaker's JSON 1.1 API): groups and their numbered, approvable versions. */
export function modelRegistryOperations(
  groups: ModelPackageStore,
  store: SageMakerStore,
): Record<string, JsonOperation> {
  const operations: ModelRegistryOperations = {
    CreateModelPackageGroup(input, { region }) {
      const name = input.ModelPackageGroupName;
      const arn = modelPackageGroupArn(region, name);
      if (groups.group(name)) throw validation(`Model Package Group already exists: ${arn}`);
      groups.insertGroup({
        ModelPackageGroupName: name,
        ModelPackageGroupArn: arn,
        ModelPackageGroupDescription: input.ModelPackageGroupDescription,
        CreationTime: Date.now() / 1000,
      });
      store.addTags(arn, input.Tags);
      return { ModelPackageGroupArn: arn };
    },
    DescribeModelPackageGroup(input, { region }) {
      return {
        ...requireGroup(groups, input.ModelPackageGroupName, region),
        CreatedBy: {},
        ModelPackageGroupStatus: "Completed",
      };
    },
    ListModelPackageGroups(input) {
      const nameContains = input.NameContains?.toLowerCase() ?? "";
      const matching = groups
        .groups()
        .filter((group) => group.ModelPackageGroupName.toLowerCase().includes(nameContains))
        .filter((group) => inTimeRange(group.CreationTime, input.CreationTimeAfter, input.CreationTimeBefore));
      const sorted = ordered(
        matching,
        input.SortBy,
        input.SortOrder,
        (group) => group.ModelPackageGroupName,
        (group) => group.CreationTime,
      );
      const { slice, nextToken } = page(sorted, input, 10);
      return {
        ModelPackageGroupSummaryList: slice.map((group) => ({ ...group, ModelPackageGroupStatus: "Completed" })),
        NextToken: nextToken,
      };
    },
    CreateModelPackage(input, { region }) {
      checkVersionedPackage(input);
      checkInferenceSpecification(input);
      const group = requireGroup(groups, input.ModelPackageGroupName!, region);
      const name = group.ModelPackageGroupName;
      const version = groups.insertVersion(name, input.ClientToken, (number) => ({
        ModelPackageGroupName: name,
        ModelPackageVersion: number,
        ModelPackageArn: modelPackageArn(region, name, number),
        ModelPackageDescription: input.ModelPackageDescription,
        InferenceSpecification: input.InferenceSpecification,
        ModelApprovalStatus: input.ModelApprovalStatus ?? "PendingManualApproval",
        MetadataProperties: input.MetadataProperties,
        ModelMetrics: input.ModelMetrics,
        CustomerMetadataProperties: input.CustomerMetadataProperties,
        CreationTime: Date.now() / 1000,
      }));
      store.addTags(version.ModelPackageArn, input.Tags);
      return { ModelPackageArn: version.ModelPackageArn };
    },
    DescribeModelPackage(input, { region }) {
      return described(requireVersion(groups, input.ModelPackageName, region));
    },
    ListModelPackages(input, { region }) {
      const inGroup = input.ModelPackageGroupName;
      const type = input.ModelPackageType ?? (inGroup ? "Versioned" : "Unversioned");
      // Local mode has versioned packages only.
      const candidates =
        type === "Unversioned"
          ? []
          : groups.versions(
              inGroup === undefined ? undefined : requireGroup(groups, inGroup, region).ModelPackageGroupName,
            );
      const nameContains = input.NameContains?.toLowerCase() ?? "";
      const matching = candidates
        .filter((version) => version.ModelPackageGroupName.toLowerCase().includes(nameContains))
        .filter((version) => !input.ModelApprovalStatus || version.ModelApprovalStatus === input.ModelApprovalStatus)
        .filter((version) => inTimeRange(version.CreationTime, input.CreationTimeAfter, input.CreationTimeBefore));
      const sorted = ordered(
        matching,
        input.SortBy,
        input.SortOrder,
        (version) => `${version.ModelPackageGroupName}/${String(version.ModelPackageVersion).padStart(10, "0")}`,
        (version) => version.CreationTime,
      );
      const { slice, nextToken } = page(sorted, input, 10);
      return {
        ModelPackageSummaryList: slice.map((version) => ({
          ModelPackageName: version.ModelPackageGroupName,
          ModelPackageGroupName: version.ModelPackageGroupName,
          ModelPackageVersion: version.ModelPackageVersion,
          ModelPackageArn: version.ModelPackageArn,
          ModelPackageDescription: version.ModelPackageDescription,
          CreationTime: version.CreationTime,
          ModelPackageStatus: "Completed" as const,
          ModelApprovalStatus: version.ModelApprovalStatus,
        })),
        NextToken: nextToken,
      };
    },
    UpdateModelPackage(input, { region }) {
      const version = requireVersion(groups, input.ModelPackageArn, region);
      const metadata = { ...version.CustomerMetadataProperties, ...input.CustomerMetadataProperties };
      for (const key of input.CustomerMetadataPropertiesToRemove ?? []) delete metadata[key];
      groups.updateVersion({
        ...version,
        ModelApprovalStatus: input.ModelApprovalStatus ?? version.ModelApprovalStatus,
        ApprovalDescription: input.ApprovalDescription ?? version.ApprovalDescription,
        CustomerMetadataProperties: Object.keys(metadata).length > 0 ? metadata : undefined,
        LastModifiedTime: Date.now() / 1000,
      });
      return { ModelPackageArn: version.ModelPackageArn };
    },
    DeleteModelPackage(input, { region }) {
      const version = requireVersion(groups, input.ModelPackageName, region);
      groups.deleteVersion(version.ModelPackageGroupName, version.ModelPackageVersion);
      store.deleteTags(version.ModelPackageArn);
      return {};
    },
  };
  return asJsonOperations(operations);
}
