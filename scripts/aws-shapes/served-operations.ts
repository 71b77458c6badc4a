/**
 * The operations whose input local mode checks against AWS's service models before it runs them, per service: the
 * botocore model (folder and API version) and the file `npm run gen:aws-shapes` writes. A handler of one of these
 * services without a generated shape fails at start (withInputShapes); S3's handler table is typed by the generated
 * operations, so one without a shape does not compile.
 */
export const servedServices = [
  {
    service: "sagemaker",
    apiVersion: "2017-07-24",
    file: "sagemaker.ts",
    exportName: "sageMakerInputShapes",
    operations: [
      "AddTags",
      "CreateEndpoint",
      "CreateEndpointConfig",
      "CreateModel",
      "CreateTransformJob",
      "DeleteEndpoint",
      "DeleteEndpointConfig",
      "DeleteModel",
      "DeleteTags",
      "DescribeEndpoint",
      "DescribeEndpointConfig",
      "DescribeModel",
      "DescribeTransformJob",
      "ListEndpoints",
      "ListTags",
      "ListTransformJobs",
      "StopTransformJob",
      "UpdateEndpoint",
      "UpdateEndpointWeightsAndCapacities",
    ],
  },
  {
    service: "sagemaker-runtime",
    apiVersion: "2017-05-13",
    file: "sagemaker-runtime.ts",
    exportName: "sageMakerRuntimeInputShapes",
    operations: ["InvokeEndpoint", "InvokeEndpointAsync", "InvokeEndpointWithResponseStream"],
  },
  {
    service: "application-autoscaling",
    apiVersion: "2016-02-06",
    file: "application-auto-scaling.ts",
    exportName: "applicationAutoScalingInputShapes",
    operations: [
      "DeleteScalingPolicy",
      "DeregisterScalableTarget",
      "DescribeScalableTargets",
      "DescribeScalingActivities",
      "DescribeScalingPolicies",
      "PutScalingPolicy",
      "RegisterScalableTarget",
    ],
  },
  {
    service: "cloudwatch",
    apiVersion: "2010-08-01",
    file: "cloudwatch.ts",
    exportName: "cloudWatchInputShapes",
    operations: ["DeleteAlarms", "DescribeAlarmHistory", "DescribeAlarms", "PutMetricAlarm", "SetAlarmState"],
  },
  {
    service: "codebuild",
    apiVersion: "2016-10-06",
    file: "codebuild.ts",
    exportName: "codeBuildInputShapes",
    operations: ["BatchGetBuilds", "BatchGetProjects", "ListBuilds", "ListBuildsForProject", "StartBuild", "StopBuild"],
  },
  {
    service: "ecr",
    apiVersion: "2015-09-21",
    file: "ecr.ts",
    exportName: "ecrInputShapes",
    operations: ["BatchGetImage", "DescribeImages", "DescribeRepositories", "ListImages"],
  },
  {
    service: "s3",
    apiVersion: "2006-03-01",
    file: "s3.ts",
    exportName: "s3InputShapes",
    operations: [
      "AbortMultipartUpload",
      "CompleteMultipartUpload",
      "CreateBucket",
      "CreateMultipartUpload",
      "DeleteObject",
      "GetBucketLocation",
      "GetObject",
      "HeadBucket",
      "HeadObject",
      "ListBuckets",
      "ListObjectsV2",
      "PutObject",
      "UploadPart",
    ],
  },
  {
    service: "logs",
    apiVersion: "2014-03-28",
    file: "cloudwatch-logs.ts",
    exportName: "cloudWatchLogsInputShapes",
    operations: ["DescribeLogStreams", "FilterLogEvents", "GetLogEvents"],
  },
] as const;

export type ServedService = (typeof servedServices)[number];
