import {
  CreateEndpointCommand,
  CreateEndpointConfigCommand,
  CreateModelCommand,
  DescribeEndpointCommand,
  SageMakerClient,
} from "@aws-sdk/client-sagemaker";
import { mockClient } from "aws-sdk-client-mock";
import "aws-sdk-client-mock-vitest/extend";
import { beforeEach, describe, expect, it } from "vitest";
import { type DeployRequestInput, deployRequestSchema } from "../../contract/endpoints/deploy.ts";
import { cpuDeploy, gpuPoolDeploy, role } from "../../tests/support/endpoints/fixtures.ts";
import { type DeployOptions, deployEndpoint } from "./deploy.ts";

const sageMaker = mockClient(SageMakerClient);
const client = new SageMakerClient({ region: "us-east-1" });
const options: DeployOptions = {
  defaultExecutionRoleArn: role,
  resourceNamePrefix: "de",
  artifactBucket: "artifacts-bucket",
};

function deploy(input: DeployRequestInput, overrides: Partial<DeployOptions> = {}) {
  return deployEndpoint(client, deployRequestSchema.parse(input), { ...options, ...overrides });
}

beforeEach(() => {
  sageMaker.reset();
  sageMaker.on(DescribeEndpointCommand).rejects(
    Object.assign(new Error('Could not find endpoint "demo".'), {
      name: "ValidationException",
      $metadata: { httpStatusCode: 400 },
    }),
  );
  sageMaker.on(CreateModelCommand).resolves({ ModelArn: "arn:model" });
  sageMaker.on(CreateEndpointConfigCommand).resolves({ EndpointConfigArn: "arn:config" });
  sageMaker.on(CreateEndpointCommand).resolves({ EndpointArn: "arn:aws:sagemaker:us-east-1:1:endpoint/demo" });
});

describe("deploying an asynchronous endpoint", () => {
  it("puts answers and failures under async/<endpoint>/ and defaults the concurrency to ADAPTER_PARALLEL's", async () => {
    await deploy(cpuDeploy({ invocation: { mode: "asynchronous" } }));
    expect(sageMaker).toHaveReceivedCommandWith(CreateEndpointConfigCommand, {
      EndpointConfigName: "demo",
      AsyncInferenceConfig: {
        OutputConfig: {
          S3OutputPath: "s3://artifacts-bucket/async/demo/out/",
          S3FailurePath: "s3://artifacts-bucket/async/demo/failed/",
        },
        ClientConfig: { MaxConcurrentInvocationsPerInstance: 8 },
      },
    });
  });

  it("follows the deployment's own ADAPTER_PARALLEL, or the concurrency given, on GPU pools too", async () => {
    await deploy(gpuPoolDeploy({ parallel: 3, invocation: { mode: "asynchronous" } }));
    await deploy(cpuDeploy({ invocation: { mode: "asynchronous", maxConcurrentInvocationsPerInstance: 2 } }));
    const configs = sageMaker.commandCalls(CreateEndpointConfigCommand).map((call) => call.args[0].input);
    expect(configs.map((c) => c.AsyncInferenceConfig?.ClientConfig?.MaxConcurrentInvocationsPerInstance)).toEqual([
      3, 2,
    ]);
    expect(configs[0]?.ProductionVariants?.[0]?.InstancePools).toHaveLength(4);
  });

  it("passes SNS topics named with the prefix as the notification config", async () => {
    const successTopic = "arn:aws:sns:us-east-1:123456789012:demo-done";
    const errorTopic = "arn:aws:sns:us-east-1:123456789012:demo-failed";
    await deploy(cpuDeploy({ invocation: { mode: "asynchronous", successTopic, errorTopic } }));
    const config = sageMaker.commandCalls(CreateEndpointConfigCommand)[0]?.args[0].input;
    expect(config?.AsyncInferenceConfig?.OutputConfig?.NotificationConfig).toEqual({
      SuccessTopic: successTopic,
      ErrorTopic: errorTopic,
    });
  });

  it("refuses a topic the execution role may not publish to, and one that is no SNS ARN, before any AWS call", async () => {
    await expect(
      deploy(
        cpuDeploy({ invocation: { mode: "asynchronous", errorTopic: "arn:aws:sns:us-east-1:123456789012:other" } }),
      ),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('invocation.errorTopic: the topic must be named with "de"'),
    });
    expect(() =>
      deployRequestSchema.parse(
        cpuDeploy({ invocation: { mode: "asynchronous", successTopic: "arn:aws:sqs:us-east-1:123456789012:q" } }),
      ),
    ).toThrow(/must be an SNS topic ARN/);
    expect(sageMaker).not.toHaveReceivedCommand(CreateModelCommand);
  });

  it("needs the artifact bucket, and keeps real-time deployments without AsyncInferenceConfig", async () => {
    await expect(
      deploy(cpuDeploy({ invocation: { mode: "asynchronous" } }), { artifactBucket: null }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining("CONSOLE_ARTIFACT_BUCKET") });
    await deploy(cpuDeploy());
    expect(sageMaker.commandCalls(CreateEndpointConfigCommand)[0]?.args[0].input.AsyncInferenceConfig).toBeUndefined();
  });
});
