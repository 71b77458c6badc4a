import { Aws, Duration, Validations } from "aws-cdk-lib";
import { BuildSpec, ComputeType, LinuxBuildImage, Project, Source } from "aws-cdk-lib/aws-codebuild";
import type { IRepository } from "aws-cdk-lib/aws-ecr";
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import type { Construct } from "constructs";
import {
  ARTIFACT_PREFIXES,
  BUILDSPEC_PATHS,
  CONSOLE_IMAGE_BUILD_PROJECT,
  CONSOLE_IMAGE_BUILDSPEC,
  IMAGE_BUILD_PROJECT,
  MODEL_PACKAGE_PROJECT,
} from "../../contract/stack/console-contract.ts";
import { codeBuildLogGroup, logGroupArns } from "./arns.ts";
import { requireCodeBuildRegion } from "./codebuild-regions.ts";
import { acknowledgeWildcardResources } from "./nag-acknowledgements.ts";

export interface BuildProjectsProps {
  bucket: IBucket;
  repository: IRepository;
}

/** Why each build-role statement with a `*` in a resource is as narrow as it gets (see nag-acknowledgements.ts). */
const wildcardReasons = {
  WriteBuildLogs: "the streams of the project's own log group",
  ReadBuildSources: "objects under build-sources/ only",
  WriteModelArtifacts: "objects under models/ only",
  EcrLogin: "GetAuthorizationToken has no resource type (Service Authorization Reference)",
};

function codeBuildRole(scope: Construct, id: string, projectName: string, grants: PolicyStatement[]): Role {
  const statements = [
    new PolicyStatement({
      sid: "WriteBuildLogs",
      actions: ["logs:CreateLogGroup", "logs:CreateLogStream", "logs:PutLogEvents"],
      resources: logGroupArns(codeBuildLogGroup(projectName)),
    }),
    ...grants,
  ];
  const role = new Role(scope, id, {
    description: `Assumed by CodeBuild for ${projectName}`,
    assumedBy: new ServicePrincipal("codebuild.amazonaws.com", {
      conditions: { StringEquals: { "aws:SourceAccount": Aws.ACCOUNT_ID } },
    }),
    inlinePolicies: { Build: new PolicyDocument({ statements }) },
  });
  acknowledgeWildcardResources(role, statements, wildcardReasons);
  return role;
}

function readBuildSources(bucket: IBucket): PolicyStatement[] {
  return [
    new PolicyStatement({
      sid: "ReadBuildSources",
      actions: ["s3:GetObject", "s3:GetObjectVersion"],
      resources: [bucket.arnForObjects(`${ARTIFACT_PREFIXES.buildSources}*`)],
    }),
    new PolicyStatement({
      sid: "LocateSourceBucket",
      actions: ["s3:GetBucketAcl", "s3:GetBucketLocation"],
      resources: [bucket.bucketArn],
    }),
    new PolicyStatement({
      sid: "ListBuildSources",
      actions: ["s3:ListBucket"],
      resources: [bucket.bucketArn],
      conditions: { StringLike: { "s3:prefix": [`${ARTIFACT_PREFIXES.buildSources}*`] } },
    }),
  ];
}

/** Push to one repository (and read back what was pushed), and log in to ECR, which has no narrower resource. */
function pushImages(sid: string, repository: IRepository): PolicyStatement[] {
  return [
    new PolicyStatement({
      sid,
      actions: [
        "ecr:BatchCheckLayerAvailability",
        "ecr:InitiateLayerUpload",
        "ecr:UploadLayerPart",
        "ecr:CompleteLayerUpload",
        "ecr:PutImage",
        "ecr:BatchGetImage",
        "ecr:DescribeImages",
      ],
      resources: [repository.repositoryArn],
    }),
    new PolicyStatement({ sid: "EcrLogin", actions: ["ecr:GetAuthorizationToken"], resources: ["*"] }),
  ];
}

function acknowledgeNoArtifacts(project: Project): void {
  Validations.of(project).acknowledge({
    id: "AwsSolutions-CB4",
    reason:
      "The projects produce no CodeBuild artifacts; what they publish goes to S3 (SSE-S3) and ECR (AES-256) through " +
      "their roles. A customer-managed key would need KMS grants for SageMaker and CodeBuild and protect no extra data.",
  });
}

function buildSources(bucket: IBucket) {
  return Source.s3({ bucket, path: `${ARTIFACT_PREFIXES.buildSources}latest/` });
}

/**
 * The two CodeBuild projects the console starts, each with its own role (the packager never touches ECR, the
 * image build never writes models). Roles are passed without policy updates so CDK adds no broader grants.
 * Their default source is a folder the console replaces on every StartBuild (`sourceLocationOverride`).
 */
export function createBuildProjects(scope: Construct, props: BuildProjectsProps) {
  requireCodeBuildRegion(scope);
  const { bucket, repository } = props;
  const source = buildSources(bucket);

  const modelPackageRole = codeBuildRole(scope, "ModelPackageBuildRole", MODEL_PACKAGE_PROJECT, [
    ...readBuildSources(bucket),
    new PolicyStatement({
      sid: "WriteModelArtifacts",
      actions: ["s3:PutObject", "s3:AbortMultipartUpload"],
      resources: [bucket.arnForObjects(`${ARTIFACT_PREFIXES.models}*`)],
    }),
  ]);
  const modelPackage = new Project(scope, "ModelPackageProject", {
    projectName: MODEL_PACKAGE_PROJECT,
    description: "Downloads a pinned GGUF, verifies its sha256 and publishes the model artifact",
    role: modelPackageRole.withoutPolicyUpdates(),
    source,
    buildSpec: BuildSpec.fromSourceFilename(BUILDSPEC_PATHS.model),
    environment: { buildImage: LinuxBuildImage.AMAZON_LINUX_2_5, computeType: ComputeType.LARGE },
    environmentVariables: {
      ARTIFACT_BUCKET: { value: bucket.bucketName },
      COMPRESSION: { value: "gzip" },
    },
    timeout: Duration.minutes(90),
  });

  const imageBuildRole = codeBuildRole(scope, "ImageBuildRole", IMAGE_BUILD_PROJECT, [
    ...readBuildSources(bucket),
    ...pushImages("PushAdapterImages", repository),
  ]);
  const imageBuild = new Project(scope, "ImageBuildProject", {
    projectName: IMAGE_BUILD_PROJECT,
    description: "Builds the adapter image (cpu or cuda), pushes it to ECR and exports its digest",
    role: imageBuildRole.withoutPolicyUpdates(),
    source,
    buildSpec: BuildSpec.fromSourceFilename(BUILDSPEC_PATHS.image),
    environment: { buildImage: LinuxBuildImage.AMAZON_LINUX_2_5, computeType: ComputeType.X2_LARGE, privileged: true },
    environmentVariables: {
      IMAGE_REPOSITORY: { value: repository.repositoryName },
      IMAGE_VARIANT: { value: "cpu" },
    },
    timeout: Duration.minutes(120),
  });

  for (const project of [modelPackage, imageBuild]) acknowledgeNoArtifacts(project);
  return { modelPackage, imageBuild };
}

/**
 * The console image's build (infra/buildspecs/console-image.yml), with a role of its own that may push only to the
 * console image's repository. An operator starts it with a source archive under build-sources/; the console's policy
 * cannot.
 */
export function createConsoleImageBuild(scope: Construct, props: BuildProjectsProps): Project {
  const { bucket, repository } = props;
  const role = codeBuildRole(scope, "ConsoleImageBuildRole", CONSOLE_IMAGE_BUILD_PROJECT, [
    ...readBuildSources(bucket),
    ...pushImages("PushConsoleImages", repository),
  ]);
  const project = new Project(scope, "ConsoleImageBuildProject", {
    projectName: CONSOLE_IMAGE_BUILD_PROJECT,
    description: "Builds the console image (Dockerfile.console), pushes it to ECR and exports its digest",
    role: role.withoutPolicyUpdates(),
    source: buildSources(bucket),
    buildSpec: BuildSpec.fromSourceFilename(CONSOLE_IMAGE_BUILDSPEC),
    environment: { buildImage: LinuxBuildImage.AMAZON_LINUX_2_5, computeType: ComputeType.LARGE, privileged: true },
    environmentVariables: { IMAGE_REPOSITORY: { value: repository.repositoryName } },
    timeout: Duration.minutes(60),
  });
  acknowledgeNoArtifacts(project);
  return project;
}
