import type { CodeBuildClient } from "@aws-sdk/client-codebuild";
import type { S3Client } from "@aws-sdk/client-s3";
import {
  CreateModelPackageCommand,
  CreateModelPackageGroupCommand,
  type CreateModelPackageInput,
  DescribeModelPackageCommand,
  DescribeModelPackageGroupCommand,
  ListModelPackageGroupsCommand,
  ListModelPackagesCommand,
  type ModelPackageContainerDefinition,
  type SageMakerClient,
  UpdateModelPackageCommand,
} from "@aws-sdk/client-sagemaker";
import type { Build } from "../../contract/builds/builds.ts";
import { compressionOfModelData } from "../../contract/builds/builds.ts";
import { pinnedImageUri } from "../../contract/builds/pinned-image.ts";
import { approvalProblem, evaluationProblem } from "../../contract/models/approval.ts";
import type {
  ApprovalRequest,
  ModelGroupDetail,
  ModelGroupSummary,
  ModelVersion,
  RegisterVersion,
} from "../../contract/models/model-registry.ts";
import { awsCall, toAwsAppError } from "../aws/errors.ts";
import type { BuildProjects } from "../builds/build-view.ts";
import { getBuild } from "../builds/builds.ts";
import { assertPullableImage } from "../endpoints/pullable-image.ts";
import { AppError } from "../http/app-error.ts";
import { type EvidenceDeps, evaluationEvidence } from "./evaluation-evidence.ts";
import { evaluationMetadata, evaluationMetadataKeys, originMetadata } from "./version-metadata.ts";
import { versionOf } from "./version-view.ts";

export interface RegistryDeps extends EvidenceDeps {
  codeBuild: CodeBuildClient;
  s3: S3Client;
  projects: BuildProjects;
  /** CONSOLE_RESOURCE_PREFIX: the groups this console may use; null: any. */
  prefix: string | null;
  region: string | undefined;
}

const MAX_VERSIONS = 100;

/**
 * Whether a model package group is the console's: its name starts with the prefix in the same case, since a
 * registry ARN keeps the name's case and IAM compares it as it is (an endpoint's ARN is lower-cased instead).
 */
export function isManagedGroup(group: string, prefix: string | null): boolean {
  return prefix === null || group.startsWith(prefix);
}

/** 403 for a group outside the console's prefix, before any AWS call (IAM would refuse it too). */
export function requireManagedGroup(group: string, prefix: string | null): void {
  if (!isManagedGroup(group, prefix)) {
    throw new AppError(
      "forbidden",
      `group: ${group} is not managed by this console: it manages model package groups starting with ${prefix}.`,
    );
  }
}

const iso = (date: Date | undefined) => (date ?? new Date(0)).toISOString();

/** Every model package group this console manages (all pages), newest first. */
export async function listModelGroups(sageMaker: SageMakerClient, prefix: string | null): Promise<ModelGroupSummary[]> {
  const groups: ModelGroupSummary[] = [];
  let NextToken: string | undefined;
  do {
    const page = await awsCall("model package groups", () =>
      sageMaker.send(
        new ListModelPackageGroupsCommand({
          NextToken,
          MaxResults: 100,
          SortBy: "CreationTime",
          SortOrder: "Descending",
          ...(prefix ? { NameContains: prefix } : {}),
        }),
      ),
    );
    for (const group of page.ModelPackageGroupSummaryList ?? []) {
      const name = group.ModelPackageGroupName ?? "";
      if (!isManagedGroup(name, prefix)) continue;
      groups.push({
        name,
        arn: group.ModelPackageGroupArn ?? "",
        description: group.ModelPackageGroupDescription ?? null,
        createdAt: iso(group.CreationTime),
      });
    }
    NextToken = page.NextToken;
  } while (NextToken);
  return groups;
}

/** The ARNs of a group's versions, newest first (at most 100). */
async function versionArns(sageMaker: SageMakerClient, group: string): Promise<string[]> {
  const arns: string[] = [];
  let NextToken: string | undefined;
  do {
    const page = await awsCall(`model package group "${group}"`, () =>
      sageMaker.send(
        new ListModelPackagesCommand({
          ModelPackageGroupName: group,
          ModelPackageType: "Versioned",
          SortBy: "CreationTime",
          SortOrder: "Descending",
          MaxResults: 100,
          NextToken,
        }),
      ),
    );
    for (const summary of page.ModelPackageSummaryList ?? []) {
      if (summary.ModelPackageArn) arns.push(summary.ModelPackageArn);
    }
    NextToken = arns.length < MAX_VERSIONS ? page.NextToken : undefined;
  } while (NextToken);
  return arns;
}

export async function describeVersionByArn(sageMaker: SageMakerClient, arn: string): Promise<ModelVersion> {
  const described = await awsCall(`model version ${arn}`, () =>
    sageMaker.send(new DescribeModelPackageCommand({ ModelPackageName: arn })),
  );
  return versionOf(described);
}

export async function modelGroup(deps: RegistryDeps, group: string): Promise<ModelGroupDetail> {
  requireManagedGroup(group, deps.prefix);
  const described = await awsCall(`model package group "${group}"`, () =>
    deps.sageMaker.send(new DescribeModelPackageGroupCommand({ ModelPackageGroupName: group })),
  );
  const arns = await versionArns(deps.sageMaker, group);
  const versions = await Promise.all(arns.map((arn) => describeVersionByArn(deps.sageMaker, arn)));
  return {
    name: described.ModelPackageGroupName ?? group,
    arn: described.ModelPackageGroupArn ?? "",
    description: described.ModelPackageGroupDescription ?? null,
    createdAt: iso(described.CreationTime),
    versions: versions.sort((a, b) => b.version - a.version),
  };
}

/** One version of a managed group, by its number. */
export async function modelVersion(deps: RegistryDeps, group: string, version: number): Promise<ModelVersion> {
  requireManagedGroup(group, deps.prefix);
  const arns = await versionArns(deps.sageMaker, group);
  const arn = arns.find((candidate) => candidate.endsWith(`/${version}`));
  if (!arn) throw new AppError("not_found", `Model package group "${group}" has no version ${version}.`);
  return describeVersionByArn(deps.sageMaker, arn);
}

/** The group, created with the description on first use. */
async function ensureGroup(sageMaker: SageMakerClient, group: string, description: string | undefined) {
  try {
    await sageMaker.send(
      new CreateModelPackageGroupCommand({
        ModelPackageGroupName: group,
        ...(description ? { ModelPackageGroupDescription: description } : {}),
      }),
    );
  } catch (error) {
    if (/already exists/i.test((error as Error).message ?? "")) return;
    throw toAwsAppError(error, `model package group "${group}"`);
  }
}

function succeeded(build: Build, kind: Build["kind"], field: string): Build {
  if (build.kind !== kind)
    throw new AppError("bad_request", `${field}: build ${build.id} is an ${build.kind} build, not a ${kind} build.`);
  if (build.status !== "SUCCEEDED") {
    throw new AppError(
      "conflict",
      `${field}: build ${build.id} is ${build.status}; register the output of a build that SUCCEEDED.`,
    );
  }
  return build;
}

/** The package's one container: the image by digest and the artifact, as CreateModel will run them. */
function packageContainer(imageUri: string, modelDataUrl: string): ModelPackageContainerDefinition {
  const digest = imageUri.split("@")[1];
  const data =
    compressionOfModelData(modelDataUrl) === "Gzip"
      ? { ModelDataUrl: modelDataUrl }
      : {
          ModelDataSource: {
            S3DataSource: {
              S3Uri: modelDataUrl.endsWith("/") ? modelDataUrl : `${modelDataUrl}/`,
              S3DataType: "S3Prefix" as const,
              CompressionType: "None" as const,
            },
          },
        };
  return { Image: imageUri, ...(digest ? { ImageDigest: digest } : {}), ...data };
}

/**
 * A finished model build's artifact with an adapter image as the next version of `group` (created on first use),
 * PendingManualApproval. With an evaluation, its report is the version's ModelMetrics and its figures are recorded.
 */
export async function registerVersion(deps: RegistryDeps, request: RegisterVersion): Promise<ModelVersion> {
  requireManagedGroup(request.group, deps.prefix);
  assertPullableImage(request.imageUri, deps.region);
  const modelBuild = succeeded(
    await getBuild(deps.codeBuild, deps.projects, request.modelBuildId),
    "model",
    "modelBuildId",
  );
  const { modelDataUrl, modelSha256, modelBytes } = modelBuild.outputs;
  if (!modelDataUrl || !modelSha256) {
    throw new AppError("conflict", `modelBuildId: build ${modelBuild.id} exported no MODEL_DATA_URL and MODEL_SHA256.`);
  }
  if (request.imageBuildId) {
    const imageBuild = succeeded(
      await getBuild(deps.codeBuild, deps.projects, request.imageBuildId),
      "image",
      "imageBuildId",
    );
    const produced = pinnedImageUri(imageBuild.outputs);
    if (produced !== request.imageUri) {
      throw new AppError(
        "bad_request",
        `imageBuildId: build ${imageBuild.id} produced ${produced ?? "no image"}, not ${request.imageUri}.`,
      );
    }
  }
  const served = { imageUri: request.imageUri, modelDataUrl };
  const evaluation = request.evaluationId
    ? await evaluationEvidence(deps, request.evaluationId, { group: request.group, served })
    : null;
  const inputs = modelBuild.inputs;
  const sourceRevision = modelBuild.source?.location ?? undefined;
  const input: CreateModelPackageInput = {
    ModelPackageGroupName: request.group,
    ...(request.description ? { ModelPackageDescription: request.description } : {}),
    InferenceSpecification: {
      Containers: [packageContainer(request.imageUri, modelDataUrl)],
      SupportedContentTypes: ["application/json"],
      SupportedResponseMIMETypes: ["application/json"],
    },
    ModelApprovalStatus: "PendingManualApproval",
    MetadataProperties: {
      GeneratedBy: modelBuild.id,
      ...(sourceRevision ? { Repository: `s3://${sourceRevision.split("/")[0]}`, CommitId: sourceRevision } : {}),
    },
    CustomerMetadataProperties: {
      ...originMetadata({
        modelBuildId: modelBuild.id,
        imageBuildId: request.imageBuildId,
        sourceRevision,
        modelSha256,
        modelBytes: modelBytes ?? undefined,
        pins: {
          ggufRepo: inputs.HF_REPO ?? null,
          ggufRevision: inputs.HF_REVISION ?? null,
          ggufFile: inputs.HF_FILE ?? null,
          tokenizerRepo: inputs.TOKENIZER_REPO ?? null,
          tokenizerRevision: inputs.TOKENIZER_REVISION ?? null,
        },
      }),
      ...(evaluation ? evaluationMetadata(evaluation) : {}),
    },
    ...(evaluation
      ? {
          ModelMetrics: {
            ModelQuality: { Statistics: { ContentType: "application/json", S3Uri: evaluation.reportUrl } },
          },
        }
      : {}),
  };
  await ensureGroup(deps.sageMaker, request.group, request.groupDescription);
  const created = await awsCall(`model package group "${request.group}"`, () =>
    deps.sageMaker.send(new CreateModelPackageCommand(input)),
  );
  return describeVersionByArn(deps.sageMaker, created.ModelPackageArn ?? "");
}

/**
 * Attaches a completed evaluation run to a version that is not yet Approved: the report goes to S3 and its figures
 * replace any earlier evaluation's in the version's metadata (ModelMetrics is fixed at registration on SageMaker).
 */
export async function attachEvaluation(
  deps: RegistryDeps,
  group: string,
  versionNumber: number,
  evaluationId: string,
): Promise<ModelVersion> {
  const version = await modelVersion(deps, group, versionNumber);
  const problem = evaluationProblem(version.status);
  if (problem) throw new AppError("conflict", problem);
  const evaluation = await evaluationEvidence(deps, evaluationId, {
    group,
    served: { imageUri: version.imageUri, modelDataUrl: version.modelDataUrl },
  });
  const metadata = evaluationMetadata(evaluation);
  const stale = evaluationMetadataKeys.filter((key) => !(key in metadata));
  await awsCall(`model version ${version.arn}`, () =>
    deps.sageMaker.send(
      new UpdateModelPackageCommand({
        ModelPackageArn: version.arn,
        CustomerMetadataProperties: metadata,
        ...(stale.length > 0 ? { CustomerMetadataPropertiesToRemove: stale } : {}),
      }),
    ),
  );
  return describeVersionByArn(deps.sageMaker, version.arn);
}

/** An operator approves or rejects a version, with the note kept as its ApprovalDescription. */
export async function decideApproval(
  deps: RegistryDeps,
  group: string,
  versionNumber: number,
  decision: ApprovalRequest,
): Promise<ModelVersion> {
  const version = await modelVersion(deps, group, versionNumber);
  const problem = approvalProblem(version.status, decision.status, version.evaluation !== null);
  if (problem) throw new AppError("conflict", problem);
  await awsCall(`model version ${version.arn}`, () =>
    deps.sageMaker.send(
      new UpdateModelPackageCommand({
        ModelPackageArn: version.arn,
        ModelApprovalStatus: decision.status,
        ApprovalDescription: decision.note,
      }),
    ),
  );
  return describeVersionByArn(deps.sageMaker, version.arn);
}
