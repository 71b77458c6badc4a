import { describe, expect, it } from "vitest";
import { applicationAutoScalingService } from "../../services/application-auto-scaling.ts";
import { cloudWatchService } from "../../services/cloudwatch.ts";
import { cloudWatchLogsService } from "../../services/cloudwatch-logs.ts";
import { codeBuildService } from "../../services/codebuild.ts";
import { ecrService } from "../../services/ecr.ts";
import { sageMakerService } from "../../services/sagemaker.ts";
import type { AuthorizationQuery } from "../evaluate.ts";
import { allowedConditionKeys, fitsAction, iamActionDetails } from "../test-support/service-reference.ts";
import type { RequestFacts } from "./facts.ts";
import { jsonActionPrefix, jsonAuthorization } from "./index.ts";
import { s3Authorization } from "./s3.ts";
import { runtimeAuthorization } from "./sagemaker.ts";

/** The served operations, read from the services themselves (their stores are not touched to list them). */
const none = undefined as never;
const services = [
  sageMakerService(
    none,
    none,
    none,
    none,
    none,
    none,
    () => [],
    none,
    () => true,
  ),
  codeBuildService(none, none),
  ecrService(none),
  cloudWatchLogsService(none),
  cloudWatchService(none, none),
  applicationAutoScalingService(none, none, none, none, Date.now, none),
];

const facts: RequestFacts = {
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

/** A realistic input per served operation, with the members that set condition keys. */
const inputs: Record<string, Record<string, unknown>> = {
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

async function referenceProblems(label: string, queries: AuthorizationQuery[]): Promise<string[]> {
  const problems: string[] = [];
  if (queries.length === 0) problems.push(`${label}: no authorisation query`);
  for (const query of queries) {
    const [service = "", name = ""] = query.action.split(":");
    const details = await iamActionDetails(service, name).catch(() => undefined);
    if (!details) {
      problems.push(`${label}: ${query.action} is not an IAM action`);
      continue;
    }
    if (!(await fitsAction(query.action, query.resource))) {
      problems.push(`${label}: ${query.resource} is not a resource type of ${query.action}`);
    }
    const allowed = await allowedConditionKeys(query.action);
    for (const key of Object.keys(query.context)) {
      if (!allowed(key)) problems.push(`${label}: ${query.action} has no condition key ${key}`);
    }
  }
  return problems;
}

describe("request -> authorisation context, checked against the Service Authorization Reference", () => {
  it("has a rule for every JSON operation local mode serves, and none for operations it does not", () => {
    for (const service of services) {
      const rules = jsonAuthorization[service.target] ?? {};
      expect(Object.keys(rules).sort(), service.target).toEqual(Object.keys(service.operations).sort());
    }
  });

  it("knows the IAM prefix of every served service's actions, for the operations it does not serve", () => {
    for (const service of services) {
      const prefix = jsonActionPrefix[service.target];
      const actions = Object.keys(service.operations).flatMap((operation) =>
        jsonAuthorization[service.target]![operation]!(inputs[operation] ?? {}, facts).map((query) => query.action),
      );
      expect(actions.filter((action) => !action.startsWith(`${prefix}:`) && !action.startsWith("iam:"))).toEqual([]);
    }
  });

  it("names real actions, ARNs of their resource types and condition keys AWS defines for them", async () => {
    const problems: string[] = [];
    for (const service of services) {
      for (const operation of Object.keys(service.operations)) {
        const input = inputs[operation];
        if (!input) {
          problems.push(`${service.target}.${operation}: no sample input`);
          continue;
        }
        const queries = jsonAuthorization[service.target]![operation]!(input, facts);
        problems.push(...(await referenceProblems(`${service.target}.${operation}`, queries)));
      }
    }
    for (const operation of ["InvokeEndpoint", "InvokeEndpointWithResponseStream", "InvokeEndpointAsync"] as const) {
      problems.push(
        ...(await referenceProblems(operation, runtimeAuthorization(operation, "dc-e", "model.tar.gz", facts))),
      );
    }
    const s3 = [
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
    for (const [method, bucket, key, query] of s3) {
      const queries = s3Authorization({ method, bucket, key, query: new URLSearchParams(query) });
      problems.push(...(await referenceProblems(`S3 ${method} /${bucket}/${key}?${query}`, queries)));
    }
    expect(problems).toEqual([]);
  });

  it("authorises CreateEndpoint on both of its required resources and CreateModel's role as iam:PassRole", () => {
    const create = jsonAuthorization.SageMaker!.CreateEndpoint!(inputs.CreateEndpoint!, facts);
    expect(create.filter((q) => q.action === "sagemaker:CreateEndpoint").map((q) => q.resource)).toEqual([
      "arn:aws:sagemaker:us-east-1:000000000000:endpoint/dc-e",
      "arn:aws:sagemaker:us-east-1:000000000000:endpoint-config/dc-c",
    ]);
    const model = jsonAuthorization.SageMaker!.CreateModel!(inputs.CreateModel!, facts);
    expect(model.find((q) => q.action === "iam:PassRole")).toEqual({
      action: "iam:PassRole",
      resource: "arn:aws:iam::000000000000:role/r",
      context: {
        "iam:PassedToService": "sagemaker.amazonaws.com",
        "iam:AssociatedResourceArn": "arn:aws:sagemaker:us-east-1:000000000000:model/dc-m",
      },
    });
    expect(model.find((q) => q.action === "sagemaker:AddTags")?.context).toMatchObject({
      "aws:RequestTag/team": "blue",
      "sagemaker:TaggingAction": "CreateModel",
    });
  });
});
