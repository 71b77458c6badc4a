import type { RequestFacts } from "../requests/facts.ts";

/**
 * A realistic request per operation local mode authorises, with the members that set condition keys, and the facts
 * they are authorised with: shared by the reference check of local IAM's requests and the console's actions table.
 */
export const sampleFacts: RequestFacts = {
  region: "us-east-1",
  accountId: "000000000000",
  sageMakerTags: () => ({ team: "blue" }),
  scalableTarget: () => ({
    arn: "arn:aws:application-autoscaling:us-east-1:000000000000:scalable-target/0abc",
    tags: { team: "blue" },
  }),
};

const target = {
  ServiceNamespace: "sagemaker",
  ResourceId: "endpoint/dc-e/variant/AllTraffic",
  ScalableDimension: "sagemaker:variant:DesiredInstanceCount",
};
const tags = [{ Key: "team", Value: "blue" }];
const variants = [
  {
    VariantName: "v",
    ModelName: "dc-m",
    InstanceType: "ml.c6i.large",
    InstancePools: [{ InstanceType: "ml.g6.xlarge", Priority: 1 }],
  },
];

export const sampleInputs: Record<string, Record<string, unknown>> = {
  CreateModel: {
    ModelName: "dc-m",
    ExecutionRoleArn: "arn:aws:iam::000000000000:role/r",
    EnableNetworkIsolation: true,
    Containers: [{ ModelPackageName: "arn:aws:sagemaker:us-east-1:000000000000:model-package/dc-g/1" }],
    Tags: tags,
  },
  DescribeModel: { ModelName: "dc-m" },
  DeleteModel: { ModelName: "dc-m" },
  CreateEndpointConfig: {
    EndpointConfigName: "dc-c",
    ProductionVariants: variants,
    Tags: tags,
    KmsKeyId: "arn:aws:kms:us-east-1:000000000000:key/k",
  },
  DescribeEndpointConfig: { EndpointConfigName: "dc-c" },
  DeleteEndpointConfig: { EndpointConfigName: "dc-c" },
  CreateEndpoint: { EndpointName: "dc-e", EndpointConfigName: "dc-c", Tags: tags },
  DescribeEndpoint: { EndpointName: "dc-e" },
  ListEndpoints: {},
  UpdateEndpointWeightsAndCapacities: { EndpointName: "dc-e" },
  DeleteEndpoint: { EndpointName: "dc-e" },
  AddTags: { ResourceArn: "arn:aws:sagemaker:us-east-1:000000000000:endpoint/dc-e", Tags: tags },
  DeleteTags: { ResourceArn: "arn:aws:sagemaker:us-east-1:000000000000:endpoint/dc-e", TagKeys: ["team"] },
  ListTags: { ResourceArn: "arn:aws:sagemaker:us-east-1:000000000000:endpoint/dc-e" },
  CreateTransformJob: {
    TransformJobName: "dc-t",
    ModelName: "dc-m",
    TransformResources: { InstanceType: "ml.c5.xlarge", InstanceCount: 2, VolumeKmsKeyId: "k" },
    TransformOutput: { S3OutputPath: "s3://b/batch/out/", KmsKeyId: "arn:aws:kms:us-east-1:000000000000:key/k" },
    Tags: tags,
  },
  DescribeTransformJob: { TransformJobName: "dc-t" },
  ListTransformJobs: {},
  StopTransformJob: { TransformJobName: "dc-t" },
  CreateModelPackageGroup: { ModelPackageGroupName: "dc-g", Tags: tags },
  DescribeModelPackageGroup: { ModelPackageGroupName: "dc-g" },
  ListModelPackageGroups: {},
  CreateModelPackage: {
    ModelPackageGroupName: "arn:aws:sagemaker:us-east-1:000000000000:model-package-group/dc-g",
    ModelApprovalStatus: "PendingManualApproval",
    CustomerMetadataProperties: { "evaluation-run": "run-1" },
    Tags: tags,
  },
  DescribeModelPackage: { ModelPackageName: "arn:aws:sagemaker:us-east-1:000000000000:model-package/dc-g/1" },
  ListModelPackages: { ModelPackageGroupName: "dc-g" },
  UpdateModelPackage: {
    ModelPackageArn: "arn:aws:sagemaker:us-east-1:000000000000:model-package/dc-g/1",
    ModelApprovalStatus: "Approved",
    CustomerMetadataProperties: { "approved-by": "operator" },
    CustomerMetadataPropertiesToRemove: ["evaluation-run"],
  },
  DeleteModelPackage: { ModelPackageName: "arn:aws:sagemaker:us-east-1:000000000000:model-package/dc-g/1" },
  StartBuild: { projectName: "decision-console-model-package" },
  StopBuild: { id: "decision-console-model-package:1" },
  BatchGetBuilds: { ids: ["decision-console-model-package:1", "decision-console-image-build:2"] },
  ListBuildsForProject: { projectName: "decision-console-image-build" },
  ListBuilds: {},
  BatchGetProjects: { names: ["decision-console-model-package"] },
  DescribeRepositories: { repositoryNames: ["decision-adapter"] },
  DescribeImages: { repositoryName: "decision-adapter" },
  ListImages: { repositoryName: "decision-adapter" },
  BatchGetImage: { repositoryName: "decision-adapter" },
  GetLogEvents: { logGroupName: "/aws/codebuild/decision-console-model-package", logStreamName: "s" },
  FilterLogEvents: { logGroupName: "/aws/sagemaker/Endpoints/dc-e" },
  DescribeLogStreams: {
    logGroupIdentifier: "arn:aws:logs:us-east-1:000000000000:log-group:/aws/sagemaker/Endpoints/dc-e:*",
  },
  GetMetricData: {},
  PutMetricData: {
    Namespace: "DecisionConsole/Monitoring",
    MetricData: [{ MetricName: "OptionMixDrift", Value: 0.1 }],
  },
  PutMetricAlarm: {
    AlarmName: "dc-e-rollback-5xx",
    AlarmActions: ["arn:aws:sns:us-east-1:000000000000:topic"],
    Tags: [{ Key: "team", Value: "blue" }],
  },
  DescribeAlarms: { AlarmNames: ["dc-e-rollback-5xx"] },
  SetAlarmState: { AlarmName: "dc-e-rollback-5xx", StateValue: "ALARM", StateReason: "test" },
  DeleteAlarms: { AlarmNames: ["dc-e-rollback-5xx"] },
  DescribeAlarmHistory: { AlarmName: "dc-e-rollback-5xx" },
  UpdateEndpoint: { EndpointName: "dc-e", EndpointConfigName: "dc-c" },
  RegisterScalableTarget: { ...target, Tags: { team: "blue" } },
  DeregisterScalableTarget: target,
  DescribeScalableTargets: { ServiceNamespace: "sagemaker" },
  PutScalingPolicy: { ...target, PolicyName: "p" },
  DescribeScalingPolicies: { ServiceNamespace: "sagemaker" },
  DescribeScalingActivities: { ServiceNamespace: "sagemaker", ResourceId: "endpoint/dc-x/variant/v" },
  DeleteScalingPolicy: { ...target, PolicyName: "p" },
};

/** S3 requests as `[method, bucket, key, query]`, one per way local S3 authorises. */
export const sampleS3Requests = [
  ["GET", "", "", ""],
  ["PUT", "b", "", ""],
  ["GET", "b", "", "location"],
  ["HEAD", "b", "", ""],
  ["GET", "b", "", "list-type=2&prefix=build-sources/&delimiter=/&max-keys=10"],
  ["PUT", "b", "k", ""],
  ["POST", "b", "k", "uploads"],
  ["PUT", "b", "k", "partNumber=1&uploadId=u"],
  ["POST", "b", "k", "uploadId=u"],
  ["DELETE", "b", "k", "uploadId=u"],
  ["GET", "b", "k", ""],
  ["HEAD", "b", "k", ""],
  ["DELETE", "b", "k", ""],
] as const;
