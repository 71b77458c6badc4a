import type {
  DescribeEndpointConfigOutput,
  DescribeEndpointOutput,
  DescribeModelOutput,
} from "@aws-sdk/client-sagemaker";
import type { DeployRequestInput } from "../../../contract/endpoints/deploy.ts";

export const digest = `sha256:${"ab".repeat(32)}`;
export const imageUri = `123456789012.dkr.ecr.us-east-1.amazonaws.com/decision-adapter@${digest}`;
export const modelSha = "13c16f426047e2de38cd075bdade4a7bcbc8c774384876f677740cda65f8a983";
export const role = "arn:aws:iam::123456789012:role/decision-console-sagemaker";

export function cpuDeploy(overrides: Partial<DeployRequestInput> = {}): DeployRequestInput {
  return {
    name: "demo",
    imageUri,
    modelDataUrl: "s3://artifacts-bucket/models/qwen/model.tar.gz",
    modelSha256: modelSha,
    compute: { kind: "cpu", instanceType: "ml.c6i.2xlarge", threads: 8 },
    ...overrides,
  };
}

export function gpuPoolDeploy(overrides: Partial<DeployRequestInput> = {}): DeployRequestInput {
  return cpuDeploy({
    compute: {
      kind: "gpu-pool",
      pools: [
        { instanceType: "ml.g6e.xlarge" },
        { instanceType: "ml.g6.2xlarge" },
        { instanceType: "ml.g5.2xlarge" },
        { instanceType: "ml.g4dn.2xlarge" },
      ],
      provisioningTimeoutSeconds: 1200,
    },
    ...overrides,
  });
}

const created = new Date("2026-11-30T10:00:00.000Z");
const modified = new Date("2026-11-30T10:12:00.000Z");

export function describedEndpoint(overrides: Partial<DescribeEndpointOutput> = {}): DescribeEndpointOutput {
  return {
    EndpointName: "demo",
    EndpointArn: "arn:aws:sagemaker:us-east-1:123456789012:endpoint/demo",
    EndpointConfigName: "demo",
    EndpointStatus: "InService",
    CreationTime: created,
    LastModifiedTime: modified,
    ProductionVariants: [
      {
        VariantName: "AllTraffic",
        CurrentInstanceCount: 1,
        DesiredInstanceCount: 1,
        DeployedImages: [{ SpecifiedImage: imageUri, ResolvedImage: imageUri }],
      },
    ],
    ...overrides,
  };
}

export function describedCpuConfig(): DescribeEndpointConfigOutput {
  return {
    EndpointConfigName: "demo",
    EndpointConfigArn: "arn:aws:sagemaker:us-east-1:123456789012:endpoint-config/demo",
    CreationTime: created,
    ProductionVariants: [
      {
        VariantName: "AllTraffic",
        ModelName: "demo",
        InitialInstanceCount: 1,
        InstanceType: "ml.c6i.2xlarge",
        ContainerStartupHealthCheckTimeoutInSeconds: 900,
        ModelDataDownloadTimeoutInSeconds: 900,
      },
    ],
  };
}

export function describedPoolConfig(): DescribeEndpointConfigOutput {
  return {
    ...describedCpuConfig(),
    ProductionVariants: [
      {
        VariantName: "AllTraffic",
        ModelName: "demo",
        InitialInstanceCount: 1,
        InstancePools: [
          { InstanceType: "ml.g6e.xlarge", Priority: 1 },
          { InstanceType: "ml.g6.2xlarge", Priority: 2 },
        ],
        VariantInstanceProvisionTimeoutInSeconds: 900,
      },
    ],
  };
}

export function describedModel(env: Record<string, string> = {}): DescribeModelOutput {
  return {
    ModelName: "demo",
    ModelArn: "arn:aws:sagemaker:us-east-1:123456789012:model/demo",
    CreationTime: created,
    ExecutionRoleArn: role,
    EnableNetworkIsolation: true,
    PrimaryContainer: {
      Image: imageUri,
      ModelDataUrl: "s3://artifacts-bucket/models/qwen/model.tar.gz",
      Environment: {
        DECISION_CONSOLE_API_MODE: "decision",
        ADAPTER_MODEL_SHA256: modelSha,
        ADAPTER_THREADS: "8",
        SEMIF_MAX_IN_FLIGHT: "2",
        ...env,
      },
    },
  };
}
