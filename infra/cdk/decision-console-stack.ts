import { CfnOutput, Stack, type StackProps } from "aws-cdk-lib";
import type { Repository } from "aws-cdk-lib/aws-ecr";
import type { ManagedPolicy } from "aws-cdk-lib/aws-iam";
import type { Construct } from "constructs";
import { ADAPTER_REPOSITORY } from "../../contract/stack/console-contract.ts";
import { createAdapterRepository, createConsoleImageRepository } from "./adapter-repository.ts";
import { createArtifactBucket } from "./artifact-bucket.ts";
import { createBuildProjects, createConsoleImageBuild } from "./build-projects.ts";
import { createConsolePolicy } from "./console-policy.ts";
import { llamaCppDlcRepositoryArn } from "./llama-cpp-dlc-repository.ts";
import { createExecutionRole } from "./sagemaker-execution-role.ts";

export interface DecisionConsoleStackProps extends StackProps {
  /** Models, endpoint configs and endpoints the console may manage must start with this (SageMaker names). */
  sageMakerNamePrefix?: string;
  repositoryName?: string;
}

/** Everything the console needs in an AWS account: artifact bucket, image repository, builds and roles. */
export class DecisionConsoleStack extends Stack {
  /** What the console may call; the hosting stack attaches it to the console's task role. */
  readonly consolePolicy: ManagedPolicy;
  /** Where the console image build pushes; a deployment runs an image of it by digest. */
  readonly consoleImageRepository: Repository;

  constructor(scope: Construct, id: string, props: DecisionConsoleStackProps = {}) {
    super(scope, id, props);
    // Grant S3's log delivery through the log bucket's policy, not ACLs (the bucket enforces owner, no ACLs).
    this.node.setContext("@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy", true);
    const namePrefix = props.sageMakerNamePrefix ?? "dc-";
    // SageMaker ARNs carry names in lower case and IAM matches ARNs case-sensitively, so an upper-case prefix
    // would match nothing.
    if (!/^[a-z0-9][a-z0-9-]{0,20}$/.test(namePrefix)) {
      throw new Error(`sageMakerNamePrefix "${namePrefix}" must be 1-21 lower-case letters, digits or hyphens`);
    }

    const bucket = createArtifactBucket(this);
    const repository = createAdapterRepository(this, props.repositoryName ?? ADAPTER_REPOSITORY);
    const dlcRepositoryArn = llamaCppDlcRepositoryArn(this);
    const executionRole = createExecutionRole(this, { bucket, repository, dlcRepositoryArn, namePrefix });
    const { modelPackage, imageBuild } = createBuildProjects(this, { bucket, repository });
    const consolePolicy = createConsolePolicy(this, {
      namePrefix,
      executionRole,
      bucket,
      repository,
      dlcRepositoryArn,
      projects: [modelPackage, imageBuild],
    });
    this.consolePolicy = consolePolicy;
    this.consoleImageRepository = createConsoleImageRepository(this);
    const consoleImageBuild = createConsoleImageBuild(this, { bucket, repository: this.consoleImageRepository });

    const output = (id: string, value: string, description: string) => new CfnOutput(this, id, { value, description });
    output("ArtifactBucketName", bucket.bucketName, "CONSOLE_ARTIFACT_BUCKET");
    output("AdapterRepositoryName", repository.repositoryName, "ECR_REPOSITORY");
    output("AdapterRepositoryUri", repository.repositoryUri, "Where image builds push");
    output("SageMakerExecutionRoleArn", executionRole.roleArn, "SAGEMAKER_EXECUTION_ROLE_ARN");
    output("ModelPackageProjectName", modelPackage.projectName, "CODEBUILD_MODEL_PROJECT");
    output("ImageBuildProjectName", imageBuild.projectName, "CODEBUILD_IMAGE_PROJECT");
    output("ConsolePolicyArn", consolePolicy.managedPolicyArn, "Attach to the console's role");
    output("SageMakerNamePrefix", namePrefix, "Endpoint names the console deploys must start with this");
    output("ConsoleImageRepositoryName", this.consoleImageRepository.repositoryName, "The console image's repository");
    output(
      "ConsoleImageRepositoryUri",
      this.consoleImageRepository.repositoryUri,
      "Where the console image build pushes",
    );
    output(
      "ConsoleImageBuildProjectName",
      consoleImageBuild.projectName,
      "Builds the console image (an operator starts it)",
    );
  }
}
