import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  ApplicationAutoScalingClient,
  DescribeScalingActivitiesCommand,
  RegisterScalableTargetCommand,
} from "@aws-sdk/client-application-auto-scaling";
import { CloudWatchClient, PutMetricAlarmCommand } from "@aws-sdk/client-cloudwatch";
import { CloudWatchLogsClient, GetLogEventsCommand } from "@aws-sdk/client-cloudwatch-logs";
import { BatchGetBuildsCommand, CodeBuildClient, StartBuildCommand } from "@aws-sdk/client-codebuild";
import { DescribeImagesCommand, ECRClient } from "@aws-sdk/client-ecr";
import {
  CreateEndpointCommand,
  CreateEndpointConfigCommand,
  type CreateEndpointConfigInput,
  CreateModelCommand,
  CreateTransformJobCommand,
  type CreateTransformJobCommandInput,
  DeleteTagsCommand,
  DescribeEndpointConfigCommand,
  DescribeModelCommand,
  DescribeTransformJobCommand,
  type ProductionVariant,
  SageMakerClient,
  StopTransformJobCommand,
} from "@aws-sdk/client-sagemaker";
import {
  InvokeEndpointCommand,
  InvokeEndpointWithResponseStreamCommand,
  SageMakerRuntimeClient,
} from "@aws-sdk/client-sagemaker-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ControlPlane, startControlPlane } from "../control-plane.ts";
import { localClientConfig } from "../stack.ts";
import { testExecutionRoleArn, testStackFixture } from "../test-support/stack-fixture.ts";
import { applicationAutoScalingInputShapes } from "../wire/generated/application-auto-scaling.ts";
import { cloudWatchInputShapes } from "../wire/generated/cloudwatch.ts";
import { sageMakerInputShapes } from "../wire/generated/sagemaker.ts";
import { sageMakerRuntimeInputShapes } from "../wire/generated/sagemaker-runtime.ts";
import { matchesPattern, type Shape } from "../wire/input-shapes.ts";

/**
 * What local SageMaker, Application Auto Scaling, CodeBuild, ECR and CloudWatch Logs refuse, with the names and
 * wording AWS uses, through the SDK.
 */
let dataDir: string;
let plane: ControlPlane;
let sageMaker: SageMakerClient;
let autoScaling: ApplicationAutoScalingClient;
const role = testExecutionRoleArn();
const image = `000000000000.dkr.ecr.us-east-1.amazonaws.com/decision-adapter@sha256:${"0".repeat(64)}`;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-rules-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0 });
  sageMaker = new SageMakerClient(localClientConfig(plane));
  autoScaling = new ApplicationAutoScalingClient(localClientConfig(plane));
  await sageMaker.send(
    new CreateModelCommand({ ModelName: "rules-model", ExecutionRoleArn: role, PrimaryContainer: { Image: image } }),
  );
});

afterAll(async () => {
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const variant = (extra: Partial<ProductionVariant> = {}): ProductionVariant => ({
  VariantName: "AllTraffic",
  ModelName: "rules-model",
  InitialInstanceCount: 1,
  InstanceType: "ml.c6i.2xlarge",
  ...extra,
});
const config = (name: string, variants: ProductionVariant[]): CreateEndpointConfigInput => ({
  EndpointConfigName: name,
  ProductionVariants: variants,
});
const refused = (message: string | RegExp) => ({ name: "ValidationException", message });

describe("local SageMaker validates as the API reference and the service model say", () => {
  it("refuses an execution role SageMaker cannot assume, as SageMaker words it (issue 50.6)", async () => {
    const madeUp = "arn:aws:iam::000000000000:role/made-up";
    await expect(
      sageMaker.send(
        new CreateModelCommand({
          ModelName: "rules-made-up-role",
          ExecutionRoleArn: madeUp,
          PrimaryContainer: { Image: image },
        }),
      ),
    ).rejects.toMatchObject({
      name: "ValidationException",
      message: `Could not assume role ${madeUp}. Please ensure that the role exists and allows principal 'sagemaker.amazonaws.com' to assume the role.`,
    });
    await expect(sageMaker.send(new DescribeModelCommand({ ModelName: "rules-made-up-role" }))).rejects.toMatchObject({
      name: "ValidationException",
    });
  });

  it("refuses a 64-character name even when it matches the pattern, with AWS's wording", async () => {
    const name = `a${"-b".repeat(31)}c`;
    expect(name).toHaveLength(64);
    await expect(
      sageMaker.send(new CreateEndpointCommand({ EndpointName: name, EndpointConfigName: "x" })),
    ).rejects.toMatchObject(
      refused(
        `1 validation error detected: Value '${name}' at 'endpointName' failed to satisfy constraint: Member must have length less than or equal to 63`,
      ),
    );
  });

  it("lists every broken constraint, with the member paths AWS prints", async () => {
    await expect(
      sageMaker.send(new CreateEndpointConfigCommand(config("bad_config", [variant({ InitialInstanceCount: 0 })]))),
    ).rejects.toMatchObject(
      refused(
        "2 validation errors detected: Value 'bad_config' at 'endpointConfigName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}; " +
          "Value '0' at 'productionVariants.1.member.initialInstanceCount' failed to satisfy constraint: Member must have value greater than or equal to 1",
      ),
    );
  });

  it("refuses an instance type or inference AMI outside the SDK model's enums", async () => {
    await expect(
      sageMaker.send(
        new CreateEndpointConfigCommand(config("bad-type", [variant({ InstanceType: "ml.c99.huge" as never })])),
      ),
    ).rejects.toMatchObject(
      refused(
        /^1 validation error detected: Value 'ml\.c99\.huge' at 'productionVariants\.1\.member\.instanceType' failed to satisfy constraint: Member must satisfy enum value set: \[.*ml\.g6e\.xlarge.*\]$/,
      ),
    );
    await expect(
      sageMaker.send(
        new CreateEndpointConfigCommand(
          config("bad-ami", [variant({ InferenceAmiVersion: "al2023-ami-sagemaker-inference-gpu-9" as never })]),
        ),
      ),
    ).rejects.toMatchObject(
      refused(/at 'productionVariants\.1\.member\.inferenceAmiVersion' .*al2023-ami-sagemaker-inference-gpu-4-1/),
    );
  });

  it("keeps VolumeSizeInGB in 1-512 and refuses it on an instance type with instance storage", async () => {
    for (const size of [0, 513]) {
      await expect(
        sageMaker.send(new CreateEndpointConfigCommand(config("bad-volume", [variant({ VolumeSizeInGB: size })]))),
      ).rejects.toMatchObject(
        refused(
          new RegExp(
            `^1 validation error detected: Value '${size}' at 'productionVariants\\.1\\.member\\.volumeSizeInGB' failed to satisfy constraint: Member must have value (greater|less) than or equal to (1|512)$`,
          ),
        ),
      );
    }
    await expect(
      sageMaker.send(
        new CreateEndpointConfigCommand(
          config("nvme-volume", [variant({ InstanceType: "ml.g5.xlarge", VolumeSizeInGB: 40 })]),
        ),
      ),
    ).rejects.toMatchObject(refused(/VolumeSizeInGB is not supported for the instance type ml\.g5\.xlarge/));
    await sageMaker.send(new CreateEndpointConfigCommand(config("ebs-volume", [variant({ VolumeSizeInGB: 40 })])));
  });

  it("keeps timeouts in their ranges", async () => {
    await expect(
      sageMaker.send(
        new CreateEndpointConfigCommand(
          config("bad-timeouts", [
            variant({ ModelDataDownloadTimeoutInSeconds: 30, ContainerStartupHealthCheckTimeoutInSeconds: 3601 }),
          ]),
        ),
      ),
    ).rejects.toMatchObject(
      refused(
        "2 validation errors detected: Value '30' at 'productionVariants.1.member.modelDataDownloadTimeoutInSeconds' failed to satisfy constraint: Member must have value greater than or equal to 60; " +
          "Value '3601' at 'productionVariants.1.member.containerStartupHealthCheckTimeoutInSeconds' failed to satisfy constraint: Member must have value less than or equal to 3600",
      ),
    );
  });

  it("needs InitialInstanceCount for an instance-based variant", async () => {
    await expect(
      sageMaker.send(
        new CreateEndpointConfigCommand(config("no-count", [variant({ InitialInstanceCount: undefined })])),
      ),
    ).rejects.toMatchObject(refused('InitialInstanceCount is required for instance-based variant "AllTraffic".'));
  });

  it("allows at most 5 instance pools with unique priorities from 1 to 5, and one of InstanceType or InstancePools", async () => {
    const pools = (priorities: number[]) =>
      variant({
        InstanceType: undefined,
        InstancePools: priorities.map((Priority) => ({ InstanceType: "ml.g6e.xlarge", Priority })),
      });
    await expect(
      sageMaker.send(new CreateEndpointConfigCommand(config("six-pools", [pools([1, 2, 3, 4, 5, 5])]))),
    ).rejects.toMatchObject(
      refused(
        /at 'productionVariants\.1\.member\.instancePools' failed to satisfy constraint: Member must have length less than or equal to 5$/,
      ),
    );
    await expect(
      sageMaker.send(new CreateEndpointConfigCommand(config("same-priority", [pools([1, 1])]))),
    ).rejects.toMatchObject(refused('The instance pools of variant "AllTraffic" must have unique priorities.'));
    await expect(
      sageMaker.send(new CreateEndpointConfigCommand(config("priority-six", [pools([6])]))),
    ).rejects.toMatchObject(
      refused(
        /at 'productionVariants\.1\.member\.instancePools\.1\.member\.priority' failed to satisfy constraint: Member must have value less than or equal to 5$/,
      ),
    );
    const both = { ...pools([1]), InstanceType: "ml.c6i.2xlarge" as const };
    await expect(sageMaker.send(new CreateEndpointConfigCommand(config("both", [both])))).rejects.toMatchObject(
      refused('Variant "AllTraffic" specifies both InstanceType and InstancePools; specify one.'),
    );
  });

  it("refuses two variants with one name", async () => {
    await expect(
      sageMaker.send(new CreateEndpointConfigCommand(config("twins", [variant(), variant()]))),
    ).rejects.toMatchObject(
      refused('Multiple production variants are named "AllTraffic"; variant names must be unique.'),
    );
  });

  it("treats names case-insensitively on Create: a second resource differing only in case already exists", async () => {
    await expect(
      sageMaker.send(
        new CreateModelCommand({
          ModelName: "Rules-Model",
          ExecutionRoleArn: role,
          PrimaryContainer: { Image: image },
        }),
      ),
    ).rejects.toMatchObject(
      refused('Cannot create already existing model "arn:aws:sagemaker:us-east-1:000000000000:model/rules-model".'),
    );
    await sageMaker.send(new CreateEndpointConfigCommand(config("case-config", [variant()])));
    await expect(
      sageMaker.send(new CreateEndpointConfigCommand(config("Case-Config", [variant()]))),
    ).rejects.toMatchObject(
      refused(
        'Cannot create already existing endpoint configuration "arn:aws:sagemaker:us-east-1:000000000000:endpoint-config/case-config".',
      ),
    );
    await sageMaker.send(
      new CreateEndpointCommand({ EndpointName: "case-endpoint", EndpointConfigName: "case-config" }),
    );
    await expect(
      sageMaker.send(new CreateEndpointCommand({ EndpointName: "Case-Endpoint", EndpointConfigName: "CASE-CONFIG" })),
    ).rejects.toMatchObject(
      refused(
        'Cannot create already existing endpoint "arn:aws:sagemaker:us-east-1:000000000000:endpoint/case-endpoint".',
      ),
    );
    await plane.endpoints.settled("case-endpoint");
  });
});

describe("local Application Auto Scaling validates as its API reference says", () => {
  const target = {
    ServiceNamespace: "sagemaker",
    ResourceId: "endpoint/case-endpoint/variant/AllTraffic",
    ScalableDimension: "sagemaker:variant:DesiredInstanceCount",
  } as const;

  it("refuses a namespace or dimension outside the SDK model's enums", async () => {
    await expect(
      autoScaling.send(
        new RegisterScalableTargetCommand({
          ...target,
          ServiceNamespace: "lambda-ish" as never,
          MinCapacity: 1,
          MaxCapacity: 2,
        }),
      ),
    ).rejects.toMatchObject(
      refused(
        /at 'serviceNamespace' failed to satisfy constraint: Member must satisfy enum value set: \[.*sagemaker.*\]/,
      ),
    );
  });

  it("keeps a real-time variant at one instance or more, and MinCapacity <= MaxCapacity", async () => {
    await expect(
      autoScaling.send(new RegisterScalableTargetCommand({ ...target, MinCapacity: 0, MaxCapacity: 2 })),
    ).rejects.toMatchObject(
      refused("MinCapacity 0 is not allowed for a real-time endpoint variant; the minimum is 1."),
    );
    await expect(
      autoScaling.send(new RegisterScalableTargetCommand({ ...target, MinCapacity: 3, MaxCapacity: 2 })),
    ).rejects.toMatchObject(refused("MaxCapacity (2) must be greater than or equal to MinCapacity (3)."));
  });
});

const transformJob = (extra: Partial<CreateTransformJobCommandInput> = {}): CreateTransformJobCommandInput => ({
  TransformJobName: "rules-job",
  ModelName: "rules-model",
  TransformInput: {
    DataSource: { S3DataSource: { S3DataType: "S3Prefix", S3Uri: "s3://decision-console-local/batch/in/" } },
    SplitType: "Line",
  },
  TransformOutput: { S3OutputPath: "s3://decision-console-local/batch/out/" },
  TransformResources: { InstanceType: "ml.c5.xlarge", InstanceCount: 1 },
  ...extra,
});

describe("local SageMaker validates transform jobs as CreateTransformJob's reference says", () => {
  it("checks the service model's constraints, with the member paths AWS prints", async () => {
    await expect(
      sageMaker.send(
        new CreateTransformJobCommand(
          transformJob({
            TransformResources: { InstanceType: "ml.c99.huge" as never, InstanceCount: 0 },
            ModelClientConfig: { InvocationsMaxRetries: 4 },
          }),
        ),
      ),
    ).rejects.toMatchObject(
      refused(
        /^3 validation errors detected: Value '4' at 'modelClientConfig\.invocationsMaxRetries' failed to satisfy constraint: Member must have value less than or equal to 3; Value 'ml\.c99\.huge' at 'transformResources\.instanceType' .*; Value '0' at 'transformResources\.instanceCount' failed to satisfy constraint: Member must have value greater than or equal to 1$/,
      ),
    );
  });

  it("keeps MaxPayloadInMB, and its product with MaxConcurrentTransforms, at 100 MB or less", async () => {
    await expect(
      sageMaker.send(new CreateTransformJobCommand(transformJob({ MaxPayloadInMB: 101 }))),
    ).rejects.toMatchObject(refused("MaxPayloadInMB (101) cannot be greater than 100 MB."));
    await expect(
      sageMaker.send(new CreateTransformJobCommand(transformJob({ MaxPayloadInMB: 6, MaxConcurrentTransforms: 17 }))),
    ).rejects.toMatchObject(
      refused("The value of MaxConcurrentTransforms * MaxPayloadInMB (17 * 6) cannot exceed 100 MB."),
    );
  });

  it("refuses what local mode does not run instead of ignoring it", async () => {
    await expect(
      sageMaker.send(new CreateTransformJobCommand(transformJob({ DataProcessing: { InputFilter: "$.features" } }))),
    ).rejects.toMatchObject(
      refused(/DataProcessing\.InputFilter other than "\$" .* is not served by the local control plane/),
    );
  });

  it("refuses an unknown model, a duplicate name, an unknown job and stopping a job that has ended", async () => {
    await expect(
      sageMaker.send(new CreateTransformJobCommand(transformJob({ ModelName: "no-such-model" }))),
    ).rejects.toMatchObject(
      refused('Could not find model "arn:aws:sagemaker:us-east-1:000000000000:model/no-such-model".'),
    );
    // The job's input (batch/in/) is outside what the execution role may list: it fails before any instance starts.
    await sageMaker.send(new CreateTransformJobCommand(transformJob()));
    await plane.transforms.settled("rules-job");
    const failed = await sageMaker.send(new DescribeTransformJobCommand({ TransformJobName: "rules-job" }));
    expect(failed.TransformJobStatus).toBe("Failed");
    expect(failed.FailureReason).toMatch(
      /^ClientError: User: arn:aws:sts::000000000000:assumed-role\/[^/]+\/SageMaker-rules-job is not authorized to perform: s3:ListBucket/,
    );
    await expect(sageMaker.send(new CreateTransformJobCommand(transformJob()))).rejects.toMatchObject({
      name: "ResourceInUse",
      message: expect.stringContaining("transform-job/rules-job"),
    });
    await expect(sageMaker.send(new StopTransformJobCommand({ TransformJobName: "rules-job" }))).rejects.toMatchObject(
      refused(/transform job is in status Failed/),
    );
    await expect(
      sageMaker.send(new DescribeTransformJobCommand({ TransformJobName: "no-such-job" })),
    ).rejects.toMatchObject({
      name: "ResourceNotFound",
      message: "Could not find requested job with name no-such-job",
    });
  });
});

describe("shadow variants, as CreateEndpointConfig's reference limits them", () => {
  const withShadow = (name: string, production: ProductionVariant[], shadows: ProductionVariant[]) => ({
    ...config(name, production),
    ShadowProductionVariants: shadows,
  });
  const oneOfEach =
    "If you use ShadowProductionVariants, you can only specify one variant for ProductionVariants and one variant for ShadowProductionVariants.";

  it("allows one production variant and one shadow variant, and describes both as given", async () => {
    const shadow = variant({ VariantName: "Shadow", InitialVariantWeight: 0.5 });
    await sageMaker.send(new CreateEndpointConfigCommand(withShadow("shadow-ok", [variant()], [shadow])));
    const described = await sageMaker.send(new DescribeEndpointConfigCommand({ EndpointConfigName: "shadow-ok" }));
    expect(described.ProductionVariants).toEqual([variant()]);
    expect(described.ShadowProductionVariants).toEqual([shadow]);
  });

  it("refuses more than one variant on either side, a name used on both, and a shadow checked as a variant", async () => {
    const shadow = variant({ VariantName: "Shadow" });
    await expect(
      sageMaker.send(
        new CreateEndpointConfigCommand(
          withShadow("shadow-two-prod", [variant(), variant({ VariantName: "B" })], [shadow]),
        ),
      ),
    ).rejects.toMatchObject(refused(oneOfEach));
    await expect(
      sageMaker.send(
        new CreateEndpointConfigCommand(
          withShadow("shadow-two-shadows", [variant()], [shadow, variant({ VariantName: "Shadow2" })]),
        ),
      ),
    ).rejects.toMatchObject(refused(oneOfEach));
    await expect(
      sageMaker.send(
        new CreateEndpointConfigCommand(
          withShadow("shadow-same-name", [variant()], [variant({ VariantName: "alltraffic" })]),
        ),
      ),
    ).rejects.toMatchObject(
      refused(
        'The shadow variant "alltraffic" has the name of a production variant; variant names must be unique across ProductionVariants and ShadowProductionVariants.',
      ),
    );
    await expect(
      sageMaker.send(
        new CreateEndpointConfigCommand(
          withShadow(
            "shadow-no-count",
            [variant()],
            [variant({ VariantName: "Shadow", InitialInstanceCount: undefined })],
          ),
        ),
      ),
    ).rejects.toMatchObject(refused('InitialInstanceCount is required for instance-based variant "Shadow".'));
    await expect(
      sageMaker.send(
        new CreateEndpointConfigCommand(
          withShadow("shadow-no-model", [variant()], [variant({ VariantName: "Shadow", ModelName: "no-such-model" })]),
        ),
      ),
    ).rejects.toMatchObject(
      refused('Could not find model "arn:aws:sagemaker:us-east-1:000000000000:model/no-such-model".'),
    );
    await expect(
      sageMaker.send(
        new CreateEndpointConfigCommand({
          ...withShadow("shadow-async", [variant()], [shadow]),
          AsyncInferenceConfig: { OutputConfig: { S3OutputPath: "s3://bucket/async/out/" } },
        }),
      ),
    ).rejects.toMatchObject(
      refused(
        "ShadowProductionVariants on an asynchronous endpoint (AsyncInferenceConfig) is not served by the local control plane.",
      ),
    );
    for (const name of [
      "shadow-two-prod",
      "shadow-two-shadows",
      "shadow-same-name",
      "shadow-no-model",
      "shadow-async",
    ]) {
      await expect(
        sageMaker.send(new DescribeEndpointConfigCommand({ EndpointConfigName: name })),
      ).rejects.toMatchObject({ name: "ValidationException" });
    }
  });
});

describe("what local mode does not serve, it refuses rather than accepts and ignores", () => {
  it("refuses data capture with a KMS key and the variant settings it does not act on", async () => {
    const capture = {
      InitialSamplingPercentage: 100,
      DestinationS3Uri: "s3://bucket/capture",
      CaptureOptions: [{ CaptureMode: "Input" as const }],
      KmsKeyId: "alias/capture",
    };
    await expect(
      sageMaker.send(
        new CreateEndpointConfigCommand({ ...config("capture-config", [variant()]), DataCaptureConfig: capture }),
      ),
    ).rejects.toMatchObject(refused("DataCaptureConfig.KmsKeyId is not served by the local control plane."));
    await expect(
      sageMaker.send(
        new CreateEndpointConfigCommand(
          config("routing-config", [
            variant(),
            variant({ VariantName: "B", RoutingConfig: { RoutingStrategy: "RANDOM" } }),
          ]),
        ),
      ),
    ).rejects.toMatchObject(refused("ProductionVariants[1].RoutingConfig is not served by the local control plane."));
    await expect(
      sageMaker.send(new DescribeEndpointConfigCommand({ EndpointConfigName: "capture-config" })),
    ).rejects.toMatchObject({ name: "ValidationException" });
  });

  it("refuses a multi-model container and a VPC, and serves the single-model mode it runs", async () => {
    await expect(
      sageMaker.send(
        new CreateModelCommand({
          ModelName: "multi-model",
          ExecutionRoleArn: role,
          PrimaryContainer: { Image: image, Mode: "MultiModel" },
        }),
      ),
    ).rejects.toMatchObject(refused('PrimaryContainer.Mode "MultiModel" is not served by the local control plane.'));
    await expect(
      sageMaker.send(
        new CreateModelCommand({
          ModelName: "vpc-model",
          ExecutionRoleArn: role,
          PrimaryContainer: { Image: image },
          VpcConfig: { SecurityGroupIds: ["sg-0123456789abcdef0"], Subnets: ["subnet-0123456789abcdef0"] },
        }),
      ),
    ).rejects.toMatchObject(refused("VpcConfig is not served by the local control plane."));
    await sageMaker.send(
      new CreateModelCommand({
        ModelName: "single-model",
        ExecutionRoleArn: role,
        PrimaryContainer: { Image: image, Mode: "SingleModel" },
      }),
    );
  });

  it("refuses a StartBuild override local CodeBuild would not apply, with CodeBuild's InvalidInputException", async () => {
    const codeBuild = new CodeBuildClient(localClientConfig(plane));
    await expect(
      codeBuild.send(new StartBuildCommand({ projectName: "any-project", buildspecOverride: "version: 0.2" })),
    ).rejects.toMatchObject({
      name: "InvalidInputException",
      message: "buildspecOverride is not served by the local control plane.",
    });
  });

  it("refuses alarm tags and Application Auto Scaling's not-scaled activities, with each service's error", async () => {
    const cloudWatch = new CloudWatchClient(localClientConfig(plane));
    await expect(
      cloudWatch.send(
        new PutMetricAlarmCommand({
          AlarmName: "tagged",
          MetricName: "Invocations",
          Namespace: "AWS/SageMaker",
          Statistic: "Sum",
          Period: 60,
          EvaluationPeriods: 1,
          Threshold: 1,
          ComparisonOperator: "GreaterThanThreshold",
          Tags: [{ Key: "team", Value: "a" }],
        }),
      ),
    ).rejects.toMatchObject({
      name: "InvalidParameterValueException",
      message: "Tags is not served by the local control plane.",
    });
    await expect(
      autoScaling.send(
        new DescribeScalingActivitiesCommand({ ServiceNamespace: "sagemaker", IncludeNotScaledActivities: true }),
      ),
    ).rejects.toMatchObject(refused("IncludeNotScaledActivities true is not served by the local control plane."));
  });
});

describe("the constraints generated from botocore that the hand-written tables had lost", () => {
  it("keeps TransformJobName at one character or more and DeleteTags' TagKeys to the tag key pattern", async () => {
    await expect(sageMaker.send(new DescribeTransformJobCommand({ TransformJobName: "" }))).rejects.toMatchObject(
      refused(
        /^1 validation error detected: Value '' at 'transformJobName' failed to satisfy constraint: Member must have length greater than or equal to 1/,
      ),
    );
    await expect(
      sageMaker.send(
        new DeleteTagsCommand({
          ResourceArn: "arn:aws:sagemaker:us-east-1:000000000000:endpoint/rules",
          TagKeys: ["team#1"],
        }),
      ),
    ).rejects.toMatchObject(
      refused(
        /^1 validation error detected: Value '\[team#1\]' at 'tagKeys' failed to satisfy constraint: Member must satisfy constraint: \[Member must satisfy regular expression pattern/,
      ),
    );
  });
});

describe("local SageMaker Runtime checks real-time invocations against the service model", () => {
  it("refuses a body over 6 MB and header values outside their patterns before it looks for the endpoint", async () => {
    const runtime = new SageMakerRuntimeClient(localClientConfig(plane));
    await expect(
      runtime.send(new InvokeEndpointCommand({ EndpointName: "no-such-endpoint", Body: new Uint8Array(6_291_457) })),
    ).rejects.toMatchObject({
      name: "ValidationError",
      message:
        "1 validation error detected: Value '<binary>' at 'body' failed to satisfy constraint: Member must have length less than or equal to 6291456",
    });
    await expect(
      runtime.send(
        new InvokeEndpointWithResponseStreamCommand({
          EndpointName: "no-such-endpoint",
          Body: new TextEncoder().encode("{}"),
          TargetVariant: "All_Traffic",
          SessionId: "NEW_SESSION",
        }),
      ),
    ).rejects.toMatchObject({
      name: "ValidationError",
      message: expect.stringMatching(
        /^2 validation errors detected: Value 'All_Traffic' at 'targetVariant' failed to satisfy constraint: Member must satisfy regular expression pattern: .*; Value 'NEW_SESSION' at 'sessionId'/,
      ),
    });
  });

  it("lets a valid invocation through to the endpoint lookup", async () => {
    const runtime = new SageMakerRuntimeClient(localClientConfig(plane));
    await expect(
      runtime.send(
        new InvokeEndpointCommand({
          EndpointName: "no-such-endpoint",
          Body: new Uint8Array(6_291_456),
          ContentType: "application/json",
          TargetVariant: "AllTraffic",
          SessionId: "NEW_SESSION",
        }),
      ),
    ).rejects.toMatchObject({ name: "ValidationError", message: expect.stringContaining("no-such-endpoint") });
  });
});

describe("the rules modules", () => {
  it("hold only patterns that compile, for every member of every served operation", () => {
    const patterns: string[] = [];
    const walk = (shape: Shape) => {
      if (shape.type === "string" && shape.pattern) patterns.push(shape.pattern);
      if (shape.type === "list") walk(shape.member);
      if (shape.type === "map") [shape.key, shape.value].forEach(walk);
      if (shape.type === "structure") Object.values(shape.members).forEach(walk);
    };
    [
      ...Object.values(sageMakerInputShapes),
      ...Object.values(sageMakerRuntimeInputShapes),
      ...Object.values(applicationAutoScalingInputShapes),
      ...Object.values(cloudWatchInputShapes),
    ].forEach(walk);
    expect(patterns.length).toBeGreaterThan(10);
    for (const pattern of patterns) expect(() => matchesPattern(pattern, "x"), pattern).not.toThrow();
  });

  it("reads Java's \\p{Print} inside a character class as in one (InferenceId: a non-space, then printable ASCII)", () => {
    const inferenceId = "^\\A\\S[\\p{Print}]*\\z$";
    expect(matchesPattern(inferenceId, "2f1c6a3e-1b7d-4c55-9d0e-2a8f4b1c9e77")).toBe(true);
    expect(matchesPattern(inferenceId, "run 7 item 3")).toBe(true);
    expect(matchesPattern(inferenceId, " leading-space")).toBe(false);
    expect(matchesPattern(inferenceId, "tab\tinside")).toBe(false);
    expect(matchesPattern("\\p{Print}+", "policy name")).toBe(true);
  });

  it("reads a quantified end anchor as Java does (CustomerMetadataProperties' keys end in `$` repeated)", () => {
    const metadata = sageMakerInputShapes.CreateModelPackage.members.CustomerMetadataProperties as Shape & {
      type: "map";
    };
    const key = (metadata.key as Shape & { type: "string" }).pattern!;
    expect(key).toMatch(/\$\{1,128\}$/);
    expect(matchesPattern(key, "dataset-sha256")).toBe(true);
    expect(matchesPattern(key, "evaluation run")).toBe(true);
    expect(matchesPattern(key, "no;semicolons")).toBe(false);
  });
});

describe("local CodeBuild, ECR and CloudWatch Logs check their inputs against botocore's shapes", () => {
  const constraint = (member: string) =>
    expect.stringMatching(new RegExp(`at '${member}' failed to satisfy constraint`));

  it("refuses a member outside its model's bounds with the service's own invalid-input error", async () => {
    const codeBuild = new CodeBuildClient(localClientConfig(plane));
    await expect(codeBuild.send(new BatchGetBuildsCommand({ ids: [] }))).rejects.toMatchObject({
      name: "InvalidInputException",
      message: constraint("ids"),
    });
    const ecr = new ECRClient(localClientConfig(plane));
    await expect(ecr.send(new DescribeImagesCommand({ repositoryName: "Decision-Adapter" }))).rejects.toMatchObject({
      name: "InvalidParameterException",
      message: constraint("repositoryName"),
    });
    const logs = new CloudWatchLogsClient(localClientConfig(plane));
    await expect(
      logs.send(new GetLogEventsCommand({ logGroupName: "/aws/codebuild/x", logStreamName: "s", limit: 0 })),
    ).rejects.toMatchObject({ name: "InvalidParameterException", message: constraint("limit") });
  });
});
