import { Aws } from "aws-cdk-lib";
import type { IProject } from "aws-cdk-lib/aws-codebuild";
import type { IRepository } from "aws-cdk-lib/aws-ecr";
import { type IRole, ManagedPolicy, PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import type { Construct } from "constructs";
import {
  ARTIFACT_PREFIXES,
  type AsyncInferenceFolder,
  CONSOLE_MODEL_TAG_KEYS,
  CONSOLE_SCALABLE_TARGET_TAG,
  DRIFT_METRICS,
  IMAGE_BUILD_PROJECT,
  MODEL_PACKAGE_PROJECT,
  SAGEMAKER_VARIANT_SCALING,
  TRANSFORM_JOB_LOG_GROUP,
} from "../../contract/stack/console-contract.ts";
import {
  asyncFolderKeys,
  asyncFolderObjects,
  codeBuildLogGroup,
  endpointLogGroup,
  logGroupArns,
  regionalArn,
} from "./arns.ts";
import { batchDataStatements } from "./batch-data.ts";
import { acknowledgeWildcardResources } from "./nag-acknowledgements.ts";

export interface ConsolePolicyProps {
  namePrefix: string;
  executionRole: IRole;
  bucket: IBucket;
  repository: IRepository;
  /** The llama.cpp DLC's repository in the stack's Region, whose tags the console resolves to digests. */
  dlcRepositoryArn: string;
  projects: IProject[];
}

/**
 * Attach to the console's own role (or user): exactly the calls `server/` makes. SageMaker resources are limited
 * to names that start with the console's prefix; the console may pass only the execution role, only to SageMaker;
 * it writes only build sources; it may change only the scalable targets it registered (tagged) for endpoint variants.
 */
export function createConsolePolicy(scope: Construct, props: ConsolePolicyProps): ManagedPolicy {
  const { namePrefix, executionRole, bucket, repository, dlcRepositoryArn, projects } = props;
  const sageMakerResources = ["model", "endpoint-config", "endpoint", "transform-job"].map((type) =>
    regionalArn("sagemaker", `${type}/${namePrefix}*`),
  );
  const endpoints = regionalArn("sagemaker", `endpoint/${namePrefix}*`);
  const buildSources = bucket.arnForObjects(`${ARTIFACT_PREFIXES.buildSources}*`);
  // Every S3 grant below names the console's own resources: its endpoints' folders, its groups' reports.
  const asyncFolder = (folder: AsyncInferenceFolder) => asyncFolderObjects(bucket, folder, namePrefix);
  const evaluationReports = `${ARTIFACT_PREFIXES.evaluationReports}${namePrefix}*`;
  const capturedDecisions = `${ARTIFACT_PREFIXES.dataCapture}${namePrefix}*`;
  const groundTruth = `${ARTIFACT_PREFIXES.groundTruth}${namePrefix}*`;
  const scalableTargets = regionalArn("application-autoscaling", "scalable-target/*");
  const variantScaling = {
    "application-autoscaling:service-namespace": SAGEMAKER_VARIANT_SCALING.serviceNamespace,
    "application-autoscaling:scalable-dimension": SAGEMAKER_VARIANT_SCALING.scalableDimension,
  };

  const statements = [
    new PolicyStatement({
      sid: "ManagePrefixedSageMakerResources",
      actions: [
        "sagemaker:CreateModel",
        "sagemaker:DescribeModel",
        "sagemaker:DeleteModel",
        "sagemaker:DescribeEndpointConfig",
        "sagemaker:DeleteEndpointConfig",
        "sagemaker:CreateEndpoint",
        "sagemaker:DescribeEndpoint",
        "sagemaker:DeleteEndpoint",
        "sagemaker:UpdateEndpointWeightsAndCapacities",
        "sagemaker:UpdateEndpoint",
        "sagemaker:DescribeTransformJob",
        "sagemaker:StopTransformJob",
      ],
      resources: sageMakerResources,
    }),
    // An endpoint config or transform job runs the models it names: only the console's own. SageMaker sets
    // sagemaker:ModelArn on these two actions (Service Authorization Reference), one ARN per model named.
    new PolicyStatement({
      sid: "ServePrefixedModels",
      actions: ["sagemaker:CreateEndpointConfig", "sagemaker:CreateTransformJob"],
      resources: [
        regionalArn("sagemaker", `endpoint-config/${namePrefix}*`),
        regionalArn("sagemaker", `transform-job/${namePrefix}*`),
      ],
      conditions: { ArnLike: { "sagemaker:ModelArn": regionalArn("sagemaker", `model/${namePrefix}*`) } },
    }),
    // What the console records about a model is in its tags, given to CreateModel (which then needs AddTags too):
    // only on create, only the console's keys. ListTags reads them back (DescribeModel does not return tags).
    new PolicyStatement({
      sid: "TagPrefixedModelsOnCreate",
      actions: ["sagemaker:AddTags"],
      resources: [regionalArn("sagemaker", `model/${namePrefix}*`)],
      conditions: {
        StringEquals: { "sagemaker:TaggingAction": "CreateModel" },
        "ForAllValues:StringEquals": { "aws:TagKeys": Object.values(CONSOLE_MODEL_TAG_KEYS) },
      },
    }),
    new PolicyStatement({
      sid: "ReadPrefixedModelTags",
      actions: ["sagemaker:ListTags"],
      resources: [regionalArn("sagemaker", `model/${namePrefix}*`)],
    }),
    // The Model Registry: groups named with the prefix and their numbered versions (model-package/<group>/<n>).
    new PolicyStatement({
      sid: "ManagePrefixedModelGroups",
      actions: ["sagemaker:CreateModelPackageGroup", "sagemaker:DescribeModelPackageGroup"],
      resources: [regionalArn("sagemaker", `model-package-group/${namePrefix}*`)],
    }),
    new PolicyStatement({
      sid: "ManagePrefixedModelVersions",
      actions: ["sagemaker:CreateModelPackage", "sagemaker:DescribeModelPackage", "sagemaker:UpdateModelPackage"],
      resources: [regionalArn("sagemaker", `model-package/${namePrefix}*/*`)],
    }),
    // A model made from a registry version (ContainerDefinition.ModelPackageName) is authorised on the version too:
    // the registry guide's "Deploy a Model Version from a Different Account" grants sagemaker:CreateModel on
    // model-package/<group>/*. Only the console's groups: another team's version is not served under a prefixed name.
    new PolicyStatement({
      sid: "DeployPrefixedModelVersions",
      actions: ["sagemaker:CreateModel"],
      resources: [regionalArn("sagemaker", `model-package/${namePrefix}*/*`)],
    }),
    new PolicyStatement({
      sid: "ListModelRegistry",
      actions: ["sagemaker:ListModelPackageGroups", "sagemaker:ListModelPackages"],
      resources: ["*"],
    }),
    new PolicyStatement({
      sid: "WriteEvaluationReports",
      actions: ["s3:PutObject"],
      resources: [bucket.arnForObjects(evaluationReports)],
    }),
    new PolicyStatement({ sid: "ListTransformJobs", actions: ["sagemaker:ListTransformJobs"], resources: ["*"] }),
    ...batchDataStatements(bucket),
    new PolicyStatement({
      sid: "ReadTransformJobLogs",
      actions: ["logs:FilterLogEvents"],
      resources: logGroupArns(TRANSFORM_JOB_LOG_GROUP),
    }),
    new PolicyStatement({
      sid: "InvokePrefixedEndpoints",
      actions: [
        "sagemaker:InvokeEndpoint",
        "sagemaker:InvokeEndpointWithResponseStream",
        "sagemaker:InvokeEndpointAsync",
      ],
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
      actions: [
        "codebuild:StartBuild",
        "codebuild:StopBuild",
        "codebuild:BatchGetBuilds",
        "codebuild:ListBuildsForProject",
      ],
      resources: projects.map((project) => project.projectArn),
    }),
    new PolicyStatement({
      sid: "ReadBuildLogs",
      actions: ["logs:GetLogEvents"],
      resources: [MODEL_PACKAGE_PROJECT, IMAGE_BUILD_PROJECT].flatMap((name) => logGroupArns(codeBuildLogGroup(name))),
    }),
    new PolicyStatement({
      sid: "SearchEndpointLogs",
      actions: ["logs:FilterLogEvents"],
      resources: logGroupArns(endpointLogGroup(namePrefix)),
    }),
    new PolicyStatement({
      sid: "DescribeAdapterImages",
      actions: ["ecr:DescribeRepositories", "ecr:DescribeImages"],
      resources: [repository.repositoryArn],
    }),
    new PolicyStatement({
      sid: "DescribeLlamaCppDlcImages",
      actions: ["ecr:DescribeImages"],
      resources: [dlcRepositoryArn],
    }),
    new PolicyStatement({
      sid: "UploadBuildSources",
      actions: ["s3:PutObject", "s3:AbortMultipartUpload"],
      resources: [buildSources],
    }),
    new PolicyStatement({
      sid: "ListBuildSources",
      actions: ["s3:ListBucket"],
      resources: [bucket.bucketArn],
      conditions: { StringLike: { "s3:prefix": [`${ARTIFACT_PREFIXES.buildSources}*`] } },
    }),
    new PolicyStatement({
      sid: "WriteAsyncRequests",
      actions: ["s3:PutObject"],
      resources: [asyncFolder("requests")],
    }),
    new PolicyStatement({
      sid: "ReadAsyncResults",
      actions: ["s3:GetObject"],
      resources: [asyncFolder("responses"), asyncFolder("failures")],
    }),
    // A result not written yet is 404 only to a caller that may list its key (else S3 answers 403): the console
    // asks for each result with a one-key listing.
    new PolicyStatement({
      sid: "ListAsyncResults",
      actions: ["s3:ListBucket"],
      resources: [bucket.bucketArn],
      conditions: {
        StringLike: {
          "s3:prefix": [asyncFolderKeys("responses", namePrefix), asyncFolderKeys("failures", namePrefix)],
        },
      },
    }),
    // The Monitoring view reads what data capture wrote (the execution role writes it; the console only reads).
    new PolicyStatement({
      sid: "ReadCapturedDecisions",
      actions: ["s3:GetObject"],
      resources: [bucket.arnForObjects(capturedDecisions)],
    }),
    new PolicyStatement({
      sid: "ListCapturedDecisions",
      actions: ["s3:ListBucket"],
      resources: [bucket.bucketArn],
      conditions: { StringLike: { "s3:prefix": [capturedDecisions] } },
    }),
    new PolicyStatement({
      sid: "ReadGroundTruth",
      actions: ["s3:GetObject"],
      resources: [bucket.arnForObjects(groundTruth)],
    }),
    new PolicyStatement({
      sid: "ListGroundTruth",
      actions: ["s3:ListBucket"],
      resources: [bucket.bucketArn],
      conditions: { StringLike: { "s3:prefix": [groundTruth] } },
    }),
    new PolicyStatement({ sid: "ReadMetrics", actions: ["cloudwatch:GetMetricData"], resources: ["*"] }),
    new PolicyStatement({
      sid: "PublishDriftMetrics",
      actions: ["cloudwatch:PutMetricData"],
      resources: ["*"],
      conditions: { StringEquals: { "cloudwatch:namespace": DRIFT_METRICS.namespace } },
    }),
    // Abort and roll back an update: SageMaker has no call that stops one, but rolls back when one of the update's
    // rollback alarms goes into ALARM, so the console sets the first of them (its own, named with the prefix).
    new PolicyStatement({
      sid: "TripRollbackAlarms",
      actions: ["cloudwatch:SetAlarmState"],
      resources: [regionalArn("cloudwatch", `alarm:${namePrefix}*`)],
    }),
    new PolicyStatement({
      sid: "DescribeAutoScaling",
      actions: [
        "application-autoscaling:DescribeScalableTargets",
        "application-autoscaling:DescribeScalingPolicies",
        "application-autoscaling:DescribeScalingActivities",
      ],
      resources: ["*"],
    }),
    new PolicyStatement({
      sid: "RegisterTaggedVariantTargets",
      actions: ["application-autoscaling:RegisterScalableTarget"],
      resources: [scalableTargets],
      conditions: {
        StringEquals: {
          ...variantScaling,
          [`aws:RequestTag/${CONSOLE_SCALABLE_TARGET_TAG.key}`]: CONSOLE_SCALABLE_TARGET_TAG.value,
        },
        // No other tag: RegisterScalableTarget adds a request's tags to an existing target's.
        "ForAllValues:StringEquals": { "aws:TagKeys": [CONSOLE_SCALABLE_TARGET_TAG.key] },
      },
    }),
    new PolicyStatement({
      sid: "ScaleTaggedVariantTargets",
      actions: [
        "application-autoscaling:DeregisterScalableTarget",
        "application-autoscaling:PutScalingPolicy",
        "application-autoscaling:DeleteScalingPolicy",
      ],
      resources: [scalableTargets],
      conditions: {
        StringEquals: {
          ...variantScaling,
          [`aws:ResourceTag/${CONSOLE_SCALABLE_TARGET_TAG.key}`]: CONSOLE_SCALABLE_TARGET_TAG.value,
        },
      },
    }),
    // Application Auto Scaling's permission validation asks the caller for these on the alarms of a target-tracking
    // policy (its service-linked role then creates them); for the variant's endpoint it asks DescribeEndpoint,
    // DescribeEndpointConfig and UpdateEndpointWeightsAndCapacities, which ManagePrefixedSageMakerResources grants on
    // the prefix only: that, not a condition key, keeps the console off other teams' variants.
    // DescribeAlarmHistory too: the endpoint page lists each alarm's state changes, one alarm (its ARN) at a time.
    new PolicyStatement({
      sid: "TargetTrackingAlarms",
      actions: ["cloudwatch:DescribeAlarms", "cloudwatch:DeleteAlarms", "cloudwatch:DescribeAlarmHistory"],
      resources: [regionalArn("cloudwatch", `alarm:TargetTracking-endpoint/${namePrefix}*`)],
    }),
    new PolicyStatement({
      sid: "RollbackAlarms",
      actions: ["cloudwatch:DescribeAlarms", "cloudwatch:DeleteAlarms", "cloudwatch:DescribeAlarmHistory"],
      resources: [regionalArn("cloudwatch", `alarm:${namePrefix}*`)],
    }),
    // An alarm acts with CloudWatch's authority, not its creator's: without this condition the console's key could
    // point a prefixed alarm at another team's scaling policy and fire it with PutMetricData. The actions the console
    // sets are its own endpoints' scaling policies (the scale-to-zero wake-up); rollback and drift alarms have none.
    // cloudwatch:AlarmActions holds every action of the alarm (CloudWatch's "Using condition keys to limit alarm
    // actions": actions "initiated when the alarm changes to any state, including ALARM, OK, or INSUFFICIENT_DATA").
    new PolicyStatement({
      sid: "PutAlarmsActingOnOwnScaling",
      actions: ["cloudwatch:PutMetricAlarm"],
      resources: [
        regionalArn("cloudwatch", `alarm:TargetTracking-endpoint/${namePrefix}*`),
        regionalArn("cloudwatch", `alarm:${namePrefix}*`),
      ],
      conditions: {
        "ForAllValues:StringLike": {
          "cloudwatch:AlarmActions": [
            // The policy id is a UUID (36 characters), so the endpoint's name is matched where it starts.
            regionalArn(
              "autoscaling",
              `scalingPolicy:????????-????-????-????-????????????:resource/sagemaker/endpoint/${namePrefix}*`,
            ),
          ],
        },
      },
    }),
    new PolicyStatement({
      sid: "CreateAutoScalingServiceLinkedRole",
      actions: ["iam:CreateServiceLinkedRole"],
      resources: [
        `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role/aws-service-role/sagemaker.application-autoscaling.amazonaws.com/AWSServiceRoleForApplicationAutoScaling_SageMakerEndpoint`,
      ],
      conditions: { StringEquals: { "iam:AWSServiceName": "sagemaker.application-autoscaling.amazonaws.com" } },
    }),
  ];
  const policy = new ManagedPolicy(scope, "ConsolePolicy", {
    description: "What the Decision Console calls: prefixed SageMaker resources, its builds, bucket and repository",
    statements,
  });
  acknowledgeWildcardResources(policy, statements, {
    ManagePrefixedSageMakerResources: `only models, endpoint configs, endpoints and transform jobs named with the prefix "${namePrefix}"`,
    ServePrefixedModels: `only endpoint configs and transform jobs named with the prefix "${namePrefix}", of models named with it`,
    TagPrefixedModelsOnCreate: `only models named with the prefix "${namePrefix}", only as CreateModel tags them, only the console's tag keys`,
    ReadPrefixedModelTags: `only the tags of models named with the prefix "${namePrefix}"`,
    ManagePrefixedModelGroups: `only model package groups named with the prefix "${namePrefix}"`,
    ManagePrefixedModelVersions: `only the versions of model package groups named with the prefix "${namePrefix}"`,
    DeployPrefixedModelVersions: `only the versions of model package groups named with the prefix "${namePrefix}"`,
    ListModelRegistry:
      "ListModelPackageGroups and ListModelPackages have no resource type (Service Authorization Reference)",
    WriteEvaluationReports: `evaluation reports of groups named with the prefix, under evaluation-reports/${namePrefix}* only`,
    ListTransformJobs: "ListTransformJobs has no resource type (Service Authorization Reference)",
    ReadWriteBatchData: "transform job inputs and outputs under batch/ only",
    ReadTransformJobLogs:
      "SageMaker writes every transform job to one log group; FilterLogEvents authorises on the group, and the console asks only for its jobs' streams",
    InvokePrefixedEndpoints: "only endpoints named with the prefix",
    ListEndpoints: "ListEndpoints has no resource type (Service Authorization Reference)",
    ReadBuildLogs: "the streams of the two build projects' own log groups",
    SearchEndpointLogs: "the log groups of endpoints named with the prefix",
    UploadBuildSources: "objects under build-sources/ only",
    WriteAsyncRequests: `asynchronous requests under async/${namePrefix}*/in/ only (the console's endpoints)`,
    ReadAsyncResults: `asynchronous answers and failures under async/${namePrefix}*/out/ and failed/ only`,
    ReadCapturedDecisions: `invocations captured by the console's endpoints, under data-capture/${namePrefix}* only (the Monitoring view)`,
    ReadGroundTruth: `ground-truth files of the console's endpoints, under ground-truth/${namePrefix}* only (realised quality)`,
    ReadMetrics: "GetMetricData has no resource type for classic metrics",
    PublishDriftMetrics: `PutMetricData has no resource type for classic metrics; limited by condition to the namespace ${DRIFT_METRICS.namespace}`,
    DescribeAutoScaling: "Describe* of Application Auto Scaling have no resource type",
    RegisterTaggedVariantTargets:
      "scalable-target ARNs are opaque ids; limited by condition to SageMaker variant counts registered with the console's tag",
    ScaleTaggedVariantTargets:
      "scalable-target ARNs are opaque ids; limited by condition to SageMaker variant targets that carry the console's tag",
    TargetTrackingAlarms: "only the target-tracking alarms of endpoints named with the prefix",
    RollbackAlarms: "only alarms named with the prefix: the update rollback alarms of the console's endpoints",
    PutAlarmsActingOnOwnScaling:
      "only the console's alarms (its prefix, and the target-tracking alarms of its endpoints), acting only on the scaling policies of endpoints named with the prefix",
    TripRollbackAlarms:
      "only alarms named with the prefix: the console's rollback alarms, set to ALARM to abort an update",
  });
  return policy;
}
