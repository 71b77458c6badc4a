import { Aws, Duration } from "aws-cdk-lib";
import { BuildSpec, ComputeType, LinuxBuildImage, Project, Source } from "aws-cdk-lib/aws-codebuild";
import type { IRepository } from "aws-cdk-lib/aws-ecr";
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import type { Construct } from "constructs";
import { codeBuildLogGroup, logGroupArns } from "./arns.ts";
import { ARTIFACT_PREFIXES } from "./artifact-bucket.ts";

export const MODEL_PACKAGE_PROJECT = "decision-console-model-package";
export const IMAGE_BUILD_PROJECT = "decision-console-image-build";

export interface BuildProjectsProps {
  bucket: IBucket;
  repository: IRepository;
}

function codeBuildRole(scope: Construct, id: string, projectName: string, statements: PolicyStatement[]): Role {
  const role = new Role(scope, id, {
    description: `Assumed by CodeBuild for ${projectName}`,
    assumedBy: new ServicePrincipal("codebuild.amazonaws.com", {
      conditions: { StringEquals: { "aws:SourceAccount": Aws.ACCOUNT_ID } },
    }),
    inlinePolicies: {
      Build: new PolicyDocument({
        statements: [
          new PolicyStatement({
            sid: "WriteBuildLogs",
            actions: ["logs:CreateLogGroup", "logs:CreateLogStream", "logs:PutLogEvents"],
            resources: logGroupArns(codeBuildLogGroup(projectName)),
          }),
          ...statements,
        ],
      }),
    },
  });
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

/**
 * The two CodeBuild projects the console starts, each with its own role (the packager never touches ECR, the
 * image build never writes models). Roles are passed without policy updates so CDK adds no broader grants.
 * Their default source is a folder the console replaces on every StartBuild (`sourceLocationOverride`).
 */
export function createBuildProjects(scope: Construct, props: BuildProjectsProps) {
  const { bucket, repository } = props;
  const source = Source.s3({ bucket, path: `${ARTIFACT_PREFIXES.buildSources}latest/` });

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
    buildSpec: BuildSpec.fromSourceFilename("infra/buildspecs/model-package.yml"),
    environment: { buildImage: LinuxBuildImage.AMAZON_LINUX_2_5, computeType: ComputeType.LARGE },
    environmentVariables: {
      ARTIFACT_BUCKET: { value: bucket.bucketName },
      COMPRESSION: { value: "gzip" },
    },
    timeout: Duration.minutes(90),
  });

  const imageBuildRole = codeBuildRole(scope, "ImageBuildRole", IMAGE_BUILD_PROJECT, [
    ...readBuildSources(bucket),
    new PolicyStatement({
      sid: "PushAdapterImages",
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
  ]);
  const imageBuild = new Project(scope, "ImageBuildProject", {
    projectName: IMAGE_BUILD_PROJECT,
    description: "Builds the adapter image (cpu or cuda), pushes it to ECR and exports its digest",
    role: imageBuildRole.withoutPolicyUpdates(),
    source,
    buildSpec: BuildSpec.fromSourceFilename("infra/buildspecs/image-build.yml"),
    environment: { buildImage: LinuxBuildImage.AMAZON_LINUX_2_5, computeType: ComputeType.X2_LARGE, privileged: true },
    environmentVariables: {
      IMAGE_REPOSITORY: { value: repository.repositoryName },
      IMAGE_VARIANT: { value: "cpu" },
    },
    timeout: Duration.minutes(120),
  });

  return { modelPackage, imageBuild };
}
