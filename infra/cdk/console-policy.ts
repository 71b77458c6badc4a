import { Aws } from "aws-cdk-lib";
import type { IProject } from "aws-cdk-lib/aws-codebuild";
import type { IRepository } from "aws-cdk-lib/aws-ecr";
import { type IRole, ManagedPolicy, PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import type { Construct } from "constructs";
import { codeBuildLogGroup, endpointLogGroup, logGroupArns, regionalArn } from "./arns.ts";
import { IMAGE_BUILD_PROJECT, MODEL_PACKAGE_PROJECT } from "./build-projects.ts";

export interface ConsolePolicyProps {
  namePrefix: string;
  executionRole: IRole;
  bucket: IBucket;
  repository: IRepository;
  projects: IProject[];
}

/**
 * Attach to the console's own role (or user): exactly the calls `server/` makes. SageMaker resources are limited
 * to names that start with the console's prefix; the console may pass only the execution role, only to SageMaker.
 */
export function createConsolePolicy(scope: Construct, props: ConsolePolicyProps): ManagedPolicy {
  const { namePrefix, executionRole, bucket, repository, projects } = props;
  const sageMakerResources = ["model", "endpoint-config", "endpoint"].map((type) =>
    regionalArn("sagemaker", `${type}/${namePrefix}*`),
  );
  const endpoints = regionalArn("sagemaker", `endpoint/${namePrefix}*`);

  return new ManagedPolicy(scope, "ConsolePolicy", {
    description: "What the Decision Console calls: prefixed SageMaker resources, its builds, bucket and repository",
    statements: [
      new PolicyStatement({
        sid: "ManagePrefixedSageMakerResources",
        actions: [
          "sagemaker:CreateModel",
          "sagemaker:DescribeModel",
          "sagemaker:DeleteModel",
          "sagemaker:CreateEndpointConfig",
          "sagemaker:DescribeEndpointConfig",
          "sagemaker:DeleteEndpointConfig",
          "sagemaker:CreateEndpoint",
          "sagemaker:DescribeEndpoint",
          "sagemaker:DeleteEndpoint",
          "sagemaker:UpdateEndpointWeightsAndCapacities",
          "sagemaker:AddTags",
        ],
        resources: sageMakerResources,
      }),
      new PolicyStatement({
        sid: "InvokePrefixedEndpoints",
        actions: ["sagemaker:InvokeEndpoint", "sagemaker:InvokeEndpointWithResponseStream"],
        resources: [endpoints],
      }),
      new PolicyStatement({ sid: "ListEndpoints", actions: ["sagemaker:ListEndpoints"], resources: ["*"] }),
      new PolicyStatement({
        sid: "PassExecutionRoleToSageMaker",
        actions: ["iam:PassRole"],
        resources: [executionRole.roleArn],
        conditions: { StringEquals: { "iam:PassedToService": "sagemaker.amazonaws.com" } },
      }),
      new PolicyStatement({
        sid: "RunBuilds",
        actions: ["codebuild:StartBuild", "codebuild:BatchGetBuilds", "codebuild:ListBuildsForProject"],
        resources: projects.map((project) => project.projectArn),
      }),
      new PolicyStatement({
        sid: "ReadBuildAndEndpointLogs",
        actions: ["logs:GetLogEvents"],
        resources: [
          ...[MODEL_PACKAGE_PROJECT, IMAGE_BUILD_PROJECT].flatMap((name) => logGroupArns(codeBuildLogGroup(name))),
          ...logGroupArns(endpointLogGroup(namePrefix)),
        ],
      }),
      new PolicyStatement({
        sid: "DescribeAdapterImages",
        actions: ["ecr:DescribeRepositories", "ecr:DescribeImages"],
        resources: [repository.repositoryArn],
      }),
      new PolicyStatement({
        sid: "ReadWriteArtifacts",
        actions: ["s3:GetObject", "s3:PutObject", "s3:AbortMultipartUpload"],
        resources: [bucket.arnForObjects("*")],
      }),
      new PolicyStatement({ sid: "ListArtifacts", actions: ["s3:ListBucket"], resources: [bucket.bucketArn] }),
      new PolicyStatement({ sid: "ReadMetrics", actions: ["cloudwatch:GetMetricData"], resources: ["*"] }),
      new PolicyStatement({
        sid: "ConfigureEndpointAutoScaling",
        actions: [
          "application-autoscaling:RegisterScalableTarget",
          "application-autoscaling:DeregisterScalableTarget",
          "application-autoscaling:DescribeScalableTargets",
          "application-autoscaling:PutScalingPolicy",
          "application-autoscaling:DescribeScalingPolicies",
          "application-autoscaling:DeleteScalingPolicy",
        ],
        resources: ["*"],
      }),
      new PolicyStatement({
        sid: "TargetTrackingAlarms",
        actions: ["cloudwatch:PutMetricAlarm", "cloudwatch:DescribeAlarms", "cloudwatch:DeleteAlarms"],
        resources: [regionalArn("cloudwatch", `alarm:TargetTracking-endpoint/${namePrefix}*`)],
      }),
      new PolicyStatement({
        sid: "CreateAutoScalingServiceLinkedRole",
        actions: ["iam:CreateServiceLinkedRole"],
        resources: [
          `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role/aws-service-role/sagemaker.application-autoscaling.amazonaws.com/AWSServiceRoleForApplicationAutoScaling_SageMakerEndpoint`,
        ],
        conditions: { StringEquals: { "iam:AWSServiceName": "sagemaker.application-autoscaling.amazonaws.com" } },
      }),
    ],
  });
}
