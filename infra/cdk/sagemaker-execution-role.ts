import { Aws } from "aws-cdk-lib";
import type { IRepository } from "aws-cdk-lib/aws-ecr";
import { Effect, PolicyDocument, PolicyStatement, Role, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import type { Construct } from "constructs";
import {
  ARTIFACT_PREFIXES,
  type AsyncInferenceFolder,
  TRANSFORM_JOB_LOG_GROUP,
} from "../../contract/stack/console-contract.ts";
import { asyncFolderObjects, endpointLogGroup, logGroupArns, regionalArn, transformJobLogStreams } from "./arns.ts";
import { transformJobDataStatements } from "./batch-data.ts";
import { acknowledgeWildcardResources } from "./nag-acknowledgements.ts";

export interface ExecutionRoleProps {
  bucket: IBucket;
  repository: IRepository;
  /** The llama.cpp DLC's repository in the stack's Region (the console deploys its images too). */
  dlcRepositoryArn: string;
  namePrefix: string;
}

/**
 * The role SageMaker assumes for the console's models, as AWS documents it for CreateModel (CloudWatch metrics,
 * CloudWatch Logs, ECR pull, S3 read), narrowed to this stack: read the packaged models, read transform jobs'
 * inputs under batch/inputs/ and write their outputs under batch/outputs/, pull the images of the adapter
 * repository and of the llama.cpp DLC's repository in this Region, write the endpoints' own log groups; for asynchronous endpoints, read the requests, write the answers and
 * failures, and publish notifications to the console's topics. The container itself runs with network isolation.
 */
export function createExecutionRole(scope: Construct, props: ExecutionRoleProps): Role {
  const { bucket, repository, dlcRepositoryArn, namePrefix } = props;
  const asyncFolder = (folder: AsyncInferenceFolder) => asyncFolderObjects(bucket, folder);
  const statements = [
    new PolicyStatement({
      sid: "ReadModelArtifacts",
      actions: ["s3:GetObject"],
      resources: [bucket.arnForObjects(`${ARTIFACT_PREFIXES.models}*`)],
    }),
    new PolicyStatement({
      sid: "ListModelPrefix",
      actions: ["s3:ListBucket"],
      resources: [bucket.bucketArn],
      conditions: { StringLike: { "s3:prefix": [`${ARTIFACT_PREFIXES.models}*`] } },
    }),
    ...transformJobDataStatements(bucket),
    new PolicyStatement({
      sid: "ReadAsyncRequests",
      actions: ["s3:GetObject"],
      resources: [asyncFolder("requests")],
    }),
    new PolicyStatement({
      sid: "WriteAsyncResults",
      actions: ["s3:PutObject", "s3:AbortMultipartUpload"],
      resources: [asyncFolder("responses"), asyncFolder("failures")],
    }),
    // Data capture: SageMaker writes the captured records as the model's execution role.
    new PolicyStatement({
      sid: "WriteCapturedData",
      actions: ["s3:PutObject"],
      resources: [bucket.arnForObjects(`${ARTIFACT_PREFIXES.dataCapture}*`)],
    }),
    new PolicyStatement({
      sid: "PublishAsyncNotifications",
      actions: ["sns:Publish"],
      resources: [regionalArn("sns", `${namePrefix}*`)],
    }),
    new PolicyStatement({
      sid: "PullAdapterImages",
      actions: ["ecr:BatchGetImage", "ecr:GetDownloadUrlForLayer", "ecr:BatchCheckLayerAvailability"],
      resources: [repository.repositoryArn],
    }),
    new PolicyStatement({
      sid: "PullLlamaCppDlcImages",
      actions: ["ecr:BatchGetImage", "ecr:GetDownloadUrlForLayer", "ecr:BatchCheckLayerAvailability"],
      resources: [dlcRepositoryArn],
    }),
    new PolicyStatement({
      sid: "EcrLogin",
      effect: Effect.ALLOW,
      actions: ["ecr:GetAuthorizationToken"],
      resources: ["*"],
    }),
    new PolicyStatement({
      sid: "PublishMetrics",
      actions: ["cloudwatch:PutMetricData"],
      resources: ["*"],
    }),
    new PolicyStatement({
      sid: "WriteEndpointLogs",
      actions: ["logs:CreateLogGroup", "logs:CreateLogStream", "logs:PutLogEvents", "logs:DescribeLogStreams"],
      resources: logGroupArns(endpointLogGroup(namePrefix)),
    }),
    new PolicyStatement({
      // Deployment guardrails: SageMaker reads an update's auto-rollback alarms with the execution role.
      sid: "ReadRollbackAlarms",
      actions: ["cloudwatch:DescribeAlarms"],
      resources: [regionalArn("cloudwatch", `alarm:${namePrefix}*`)],
    }),
    new PolicyStatement({
      sid: "WriteTransformJobLogs",
      actions: ["logs:CreateLogGroup", "logs:CreateLogStream", "logs:PutLogEvents", "logs:DescribeLogStreams"],
      resources: [regionalArn("logs", `log-group:${TRANSFORM_JOB_LOG_GROUP}`), transformJobLogStreams(namePrefix)],
    }),
  ];
  const role = new Role(scope, "SageMakerExecutionRole", {
    description: "Assumed by SageMaker to load Decision Console models and adapter images",
    assumedBy: new ServicePrincipal("sagemaker.amazonaws.com", {
      conditions: { StringEquals: { "aws:SourceAccount": Aws.ACCOUNT_ID } },
    }),
    inlinePolicies: { ModelAccess: new PolicyDocument({ statements }) },
  });
  acknowledgeWildcardResources(role, statements, {
    ReadModelArtifacts: "objects under models/ only",
    ReadAsyncRequests: "asynchronous requests under async/<endpoint>/in/ only",
    WriteAsyncResults: "asynchronous answers and failures under async/<endpoint>/out/ and failed/ only",
    WriteCapturedData: "captured invocations under data-capture/ only",
    PublishAsyncNotifications: "only SNS topics named with the console's prefix (success and error notifications)",
    EcrLogin: "GetAuthorizationToken has no resource type (Service Authorization Reference)",
    PublishMetrics: "PutMetricData has no resource type for classic metrics; AWS documents it for CreateModel roles",
    WriteEndpointLogs: "the log groups and streams of endpoints named with the prefix",
    ReadRollbackAlarms: "only alarms named with the prefix (the update rollback alarms)",
    ReadTransformInputs: "transform job inputs under batch/inputs/ only",
    WriteTransformOutputs: "transform job outputs under batch/outputs/ only",
    WriteTransformJobLogs: "the streams of transform jobs named with the prefix",
  });
  return role;
}
