import {
  CreateEndpointCommand,
  CreateEndpointConfigCommand,
  CreateModelCommand,
  DeleteEndpointConfigCommand,
  DeleteModelCommand,
  DescribeEndpointCommand,
  SageMakerClient,
} from "@aws-sdk/client-sagemaker";
import { mockClient } from "aws-sdk-client-mock";
import "aws-sdk-client-mock-vitest/extend";
import { beforeEach, describe, expect, it } from "vitest";
import { deployRequestSchema } from "../../contract/endpoints/deploy.ts";
import { cpuDeploy, gpuPoolDeploy, imageUri, modelSha, role } from "../../tests/support/endpoints/fixtures.ts";
import { deployEndpoint } from "./deploy.ts";

const sageMaker = mockClient(SageMakerClient);
const client = new SageMakerClient({ region: "us-east-1" });

function notFound(message: string): Error {
  return Object.assign(new Error(message), { name: "ValidationException", $metadata: { httpStatusCode: 400 } });
}

function freshName() {
  sageMaker.on(DescribeEndpointCommand).rejects(notFound('Could not find endpoint "demo".'));
}

describe("deploy", () => {
  const sleeps: number[] = [];
  const options = {
    defaultExecutionRoleArn: role,
    sleep: async (ms: number) => {
      sleeps.push(ms);
    },
  };

  beforeEach(() => {
    sageMaker.reset();
    sleeps.length = 0;
    freshName();
    sageMaker.on(CreateModelCommand).resolves({ ModelArn: "arn:model" });
    sageMaker.on(CreateEndpointConfigCommand).resolves({ EndpointConfigArn: "arn:config" });
    sageMaker.on(CreateEndpointCommand).resolves({ EndpointArn: "arn:aws:sagemaker:us-east-1:1:endpoint/demo" });
  });

  it("creates a network-isolated model with the digest-pinned image, model data and adapter environment", async () => {
    await deployEndpoint(
      client,
      deployRequestSchema.parse(cpuDeploy({ limits: { maxInFlight: 2 }, parallel: 4 })),
      options,
    );
    expect(sageMaker).toHaveReceivedCommandExactlyOnceWith(CreateModelCommand, {
      ModelName: "demo",
      ExecutionRoleArn: role,
      EnableNetworkIsolation: true,
      PrimaryContainer: {
        Image: imageUri,
        ModelDataUrl: "s3://artifacts-bucket/models/qwen/model.tar.gz",
        Environment: {
          ADAPTER_MODEL_SHA256: modelSha,
          ADAPTER_THREADS: "8",
          ADAPTER_PARALLEL: "4",
          SEMIF_MAX_IN_FLIGHT: "2",
        },
      },
    });
  });

  it("gives a CPU variant its instance type with the sample's 900 s start-up and download timeouts", async () => {
    await deployEndpoint(client, deployRequestSchema.parse(cpuDeploy()), options);
    expect(sageMaker).toHaveReceivedCommandExactlyOnceWith(CreateEndpointConfigCommand, {
      EndpointConfigName: "demo",
      ProductionVariants: [
        {
          VariantName: "AllTraffic",
          ModelName: "demo",
          InitialInstanceCount: 1,
          InitialVariantWeight: 1,
          InstanceType: "ml.c6i.2xlarge",
          ContainerStartupHealthCheckTimeoutInSeconds: 900,
          ModelDataDownloadTimeoutInSeconds: 900,
        },
      ],
    });
    expect(sageMaker).toHaveReceivedCommandExactlyOnceWith(CreateEndpointCommand, {
      EndpointName: "demo",
      EndpointConfigName: "demo",
    });
  });

  it("refuses a name outside the console's IAM prefix before creating anything", async () => {
    const request = deployRequestSchema.parse(cpuDeploy({ name: "team-router" }));
    await expect(deployEndpoint(client, request, { ...options, resourceNamePrefix: "dc-" })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('must start with "dc-"'),
    });
    expect(sageMaker.calls()).toHaveLength(0);
  });

  it("gives a GPU variant ordered instance pools with priorities 1..n, the provisioning timeout and CUDA on", async () => {
    await deployEndpoint(client, deployRequestSchema.parse(gpuPoolDeploy()), options);
    const config = sageMaker.commandCalls(CreateEndpointConfigCommand)[0]?.args[0].input;
    const variant = config?.ProductionVariants?.[0];
    expect(variant?.InstancePools).toEqual([
      { InstanceType: "ml.g6e.xlarge", Priority: 1 },
      { InstanceType: "ml.g6.2xlarge", Priority: 2 },
      { InstanceType: "ml.g5.2xlarge", Priority: 3 },
      { InstanceType: "ml.g4dn.2xlarge", Priority: 4 },
    ]);
    expect(variant?.VariantInstanceProvisionTimeoutInSeconds).toBe(1200);
    expect(variant?.InferenceAmiVersion).toBe("al2023-ami-sagemaker-inference-gpu-4-1");
    expect(variant).not.toHaveProperty("InstanceType");
    const model = sageMaker.commandCalls(CreateModelCommand)[0]?.args[0].input;
    expect(model?.PrimaryContainer?.Environment?.ADAPTER_GPU).toBe("cuda");
  });

  it("points an uncompressed model at an S3 prefix with CompressionType None", async () => {
    await deployEndpoint(
      client,
      deployRequestSchema.parse(cpuDeploy({ modelDataUrl: "s3://artifacts-bucket/models/qwen", compression: "None" })),
      options,
    );
    const container = sageMaker.commandCalls(CreateModelCommand)[0]?.args[0].input.PrimaryContainer;
    expect(container?.ModelDataSource).toEqual({
      S3DataSource: { S3Uri: "s3://artifacts-bucket/models/qwen/", S3DataType: "S3Prefix", CompressionType: "None" },
    });
    expect(container).not.toHaveProperty("ModelDataUrl");
  });

  it("pins the model's sha256 with the adapter's ADAPTER_MODEL_SHA256, which the adapter enforces at start", async () => {
    await deployEndpoint(client, deployRequestSchema.parse(cpuDeploy()), options);
    const env = sageMaker.commandCalls(CreateModelCommand)[0]?.args[0].input.PrimaryContainer?.Environment;
    expect(env?.ADAPTER_MODEL_SHA256).toBe(modelSha);
    expect(env).not.toHaveProperty("DECISION_CONSOLE_MODEL_SHA256");
    // Nothing to record: a decision model is created without tags (and needs no tagging permission).
    expect(sageMaker.commandCalls(CreateModelCommand)[0]?.args[0].input).not.toHaveProperty("Tags");
  });

  it("sets llama.cpp DLC variables for a chat image instead of the adapter's", async () => {
    await deployEndpoint(client, deployRequestSchema.parse(gpuPoolDeploy({ apiMode: "chat" })), options);
    const model = sageMaker.commandCalls(CreateModelCommand)[0]?.args[0].input;
    expect(model?.PrimaryContainer?.Environment).toEqual({
      SM_LLAMA_CPP_CTX_SIZE: "4096",
      SM_LLAMA_CPP_N_GPU_LAYERS: "999",
    });
    // The DLC cannot check the sha256: the model's tags record it, the container's environment does not carry it.
    expect(model?.Tags).toEqual([{ Key: "decision-console:model-sha256", Value: modelSha }]);
  });

  it("retries CreateEndpoint while SageMaker has not yet seen the new model, then succeeds", async () => {
    sageMaker
      .on(CreateEndpointCommand)
      .rejectsOnce(notFound('Could not find model "arn:aws:sagemaker:us-east-1:1:model/demo".'))
      .rejectsOnce(notFound('Could not find endpoint config "demo".'))
      .resolves({ EndpointArn: "arn:aws:sagemaker:us-east-1:1:endpoint/demo" });
    const result = await deployEndpoint(client, deployRequestSchema.parse(cpuDeploy()), options);
    expect(result).toMatchObject({ name: "demo", status: "Creating", createAttempts: 3 });
    expect(sleeps).toEqual([1000, 2000]);
    expect(sageMaker).toHaveReceivedCommandTimes(CreateEndpointCommand, 3);
    expect(sageMaker).not.toHaveReceivedCommand(DeleteModelCommand);
  });

  it("gives up after the retry schedule and removes the model and config it created", async () => {
    sageMaker.on(CreateEndpointCommand).rejects(notFound('Could not find model "demo".'));
    sageMaker.on(DeleteEndpointConfigCommand).resolves({});
    sageMaker.on(DeleteModelCommand).resolves({});
    await expect(
      deployEndpoint(client, deployRequestSchema.parse(cpuDeploy()), { ...options, createRetryDelaysMs: [5, 5] }),
    ).rejects.toMatchObject({ status: 404 });
    expect(sageMaker).toHaveReceivedCommandTimes(CreateEndpointCommand, 3);
    expect(sageMaker).toHaveReceivedCommandWith(DeleteEndpointConfigCommand, { EndpointConfigName: "demo" });
    expect(sageMaker).toHaveReceivedCommandWith(DeleteModelCommand, { ModelName: "demo" });
  });

  it("does not retry other CreateEndpoint validation errors", async () => {
    sageMaker
      .on(CreateEndpointCommand)
      .rejects(Object.assign(new Error("Account quota exceeded for ml.g6e.xlarge"), { name: "ResourceLimitExceeded" }));
    await expect(deployEndpoint(client, deployRequestSchema.parse(cpuDeploy()), options)).rejects.toMatchObject({
      status: 409,
    });
    expect(sageMaker).toHaveReceivedCommandTimes(CreateEndpointCommand, 1);
    expect(sleeps).toEqual([]);
  });

  it("refuses a name already used by an endpoint before creating anything", async () => {
    sageMaker.on(DescribeEndpointCommand).resolves({ EndpointName: "demo", EndpointStatus: "InService" });
    await expect(deployEndpoint(client, deployRequestSchema.parse(cpuDeploy()), options)).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('An endpoint named "demo" already exists'),
    });
    expect(sageMaker).not.toHaveReceivedCommand(CreateModelCommand);
  });

  it("reports a leftover model of the same name as a conflict and creates no config", async () => {
    sageMaker
      .on(CreateModelCommand)
      .rejects(notFound('Cannot create already existing model "arn:aws:sagemaker:us-east-1:1:model/demo".'));
    await expect(deployEndpoint(client, deployRequestSchema.parse(cpuDeploy()), options)).rejects.toMatchObject({
      status: 409,
    });
    expect(sageMaker).not.toHaveReceivedCommand(CreateEndpointConfigCommand);
  });

  it("reports a leftover endpoint config of the same name as a conflict and removes the new model", async () => {
    sageMaker
      .on(CreateEndpointConfigCommand)
      .rejects(
        notFound(
          'Cannot create already existing endpoint configuration "arn:aws:sagemaker:us-east-1:1:endpoint-config/demo".',
        ),
      );
    sageMaker.on(DeleteModelCommand).resolves({});
    await expect(deployEndpoint(client, deployRequestSchema.parse(cpuDeploy()), options)).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('An endpoint config named "demo" already exists'),
    });
    expect(sageMaker).toHaveReceivedCommandWith(DeleteModelCommand, { ModelName: "demo" });
  });

  it("removes the model again when the endpoint config is refused", async () => {
    sageMaker.on(CreateEndpointConfigCommand).rejects(notFound("Invalid instance type ml.c6i.99xlarge"));
    sageMaker.on(DeleteModelCommand).resolves({});
    await expect(deployEndpoint(client, deployRequestSchema.parse(cpuDeploy()), options)).rejects.toMatchObject({
      status: 400,
    });
    expect(sageMaker).toHaveReceivedCommandWith(DeleteModelCommand, { ModelName: "demo" });
    expect(sageMaker).not.toHaveReceivedCommand(CreateEndpointCommand);
  });

  it("needs an execution role from the request or the console's settings", async () => {
    await expect(
      deployEndpoint(client, deployRequestSchema.parse(cpuDeploy()), { ...options, defaultExecutionRoleArn: null }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining("SAGEMAKER_EXECUTION_ROLE_ARN") });
    expect(sageMaker).not.toHaveReceivedCommand(CreateModelCommand);
  });

  it("refuses partial GPU offload for the decision adapter, which only runs with every layer on CUDA", async () => {
    const request = deployRequestSchema.parse(
      gpuPoolDeploy({ compute: { kind: "gpu-pool", pools: [{ instanceType: "ml.g6e.xlarge" }], gpuLayers: 20 } }),
    );
    await expect(deployEndpoint(client, request, options)).rejects.toMatchObject({ status: 400 });
    expect(sageMaker).not.toHaveReceivedCommand(CreateModelCommand);
  });
});

describe("deploy request schema", () => {
  it("rejects an image given by a mutable tag and says how to fix it", () => {
    const parsed = deployRequestSchema.safeParse(
      cpuDeploy({ imageUri: "123456789012.dkr.ecr.us-east-1.amazonaws.com/decision-adapter:cpu" }),
    );
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(["imageUri"]);
    expect(parsed.error?.issues[0]?.message).toMatch(/pinned by digest.*mutable tags/);
  });

  it("rejects a digest that is not 64 hex characters", () => {
    const parsed = deployRequestSchema.safeParse(cpuDeploy({ imageUri: "repo/adapter@sha256:abc" }));
    expect(parsed.error?.issues[0]?.message).toMatch(/64 lowercase hex/);
  });

  it("accepts 1 to 5 instance pools and no more", () => {
    const pools = (n: number) => Array.from({ length: n }, (_, i) => ({ instanceType: `ml.g${i + 4}.xlarge` }));
    const withPools = (n: number) => gpuPoolDeploy({ compute: { kind: "gpu-pool", pools: pools(n) } });
    expect(deployRequestSchema.safeParse(withPools(5)).success).toBe(true);
    expect(deployRequestSchema.safeParse(withPools(6)).error?.issues[0]?.message).toMatch(/at most 5/);
    expect(deployRequestSchema.safeParse(withPools(0)).error?.issues[0]?.message).toMatch(/at least one/);
  });

  it("rejects a model location outside S3 and an endpoint name SageMaker would refuse", () => {
    expect(deployRequestSchema.safeParse(cpuDeploy({ modelDataUrl: "https://example.com/m.tar.gz" })).success).toBe(
      false,
    );
    expect(deployRequestSchema.safeParse(cpuDeploy({ name: "bad_name" })).success).toBe(false);
  });

  it.each([
    [
      `public.ecr.aws/deep-learning-containers/llama-cpp@sha256:${"a".repeat(64)}`,
      /does not pull from public\.ecr\.aws.*Use 763104351884\.dkr\.ecr\.us-east-1\.amazonaws\.com\/llama-cpp \(tag server-sagemaker-cpu-v1/,
    ],
    [
      `692866216735.dkr.ecr.eu-south-1.amazonaws.com/llama-cpp@sha256:${"a".repeat(64)}`,
      /is in eu-south-1, but SageMaker pulls .* only from Amazon ECR in the endpoint's Region \(us-east-1\)\. Use 763104351884\.dkr\.ecr\.us-east-1\.amazonaws\.com\/llama-cpp/,
    ],
    [`docker.io/library/adapter@sha256:${"a".repeat(64)}`, /does not pull from docker\.io/],
  ])("refuses %s, which SageMaker cannot pull, before creating anything (400)", async (image, message) => {
    const request = deployRequestSchema.parse(cpuDeploy({ imageUri: image, apiMode: "chat" }));
    await expect(deployEndpoint(client, request, { defaultExecutionRoleArn: role })).rejects.toMatchObject({
      status: 400,
      message,
    });
    expect(sageMaker).not.toHaveReceivedCommand(CreateModelCommand);
  });

  it("sizes a CPU variant's EBS volume for the model data, and leaves instance-storage types without one", async () => {
    const deployed = async (instanceType: string, modelBytes?: number) => {
      sageMaker.resetHistory();
      const request = deployRequestSchema.parse(
        cpuDeploy({ modelBytes, compute: { kind: "cpu", instanceType, threads: 2 } }),
      );
      await deployEndpoint(client, request, { defaultExecutionRoleArn: role });
      return sageMaker.commandCalls(CreateEndpointConfigCommand)[0]?.args[0].input.ProductionVariants?.[0];
    };
    expect((await deployed("ml.c6i.2xlarge", 4 * 1024 ** 3))?.VolumeSizeInGB).toBe(12);
    expect(await deployed("ml.c5d.2xlarge", 4 * 1024 ** 3)).not.toHaveProperty("VolumeSizeInGB");
    expect(await deployed("ml.c6i.2xlarge")).not.toHaveProperty("VolumeSizeInGB");
  });

  it("refuses a model too large for the 512 GB volume before creating anything", async () => {
    sageMaker.resetHistory();
    const request = deployRequestSchema.parse(cpuDeploy({ modelBytes: 300 * 1024 ** 3 }));
    await expect(deployEndpoint(client, request, { defaultExecutionRoleArn: role })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/needs a 722 GB storage volume, more than the 512 GB/),
    });
    expect(sageMaker).not.toHaveReceivedCommand(CreateModelCommand);
  });
});
