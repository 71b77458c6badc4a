import { BatchGetBuildsCommand, CodeBuildClient } from "@aws-sdk/client-codebuild";
import { DescribeImagesCommand, DescribeRepositoriesCommand, ECRClient } from "@aws-sdk/client-ecr";
import {
  CreateModelCommand,
  CreateTransformJobCommand,
  DeleteModelCommand,
  DescribeTransformJobCommand,
  ResourceInUse,
  SageMakerClient,
} from "@aws-sdk/client-sagemaker";
import { mockClient } from "aws-sdk-client-mock";
import "aws-sdk-client-mock-vitest/extend";
import { beforeEach, describe, expect, it } from "vitest";
import { startTransformJobSchema } from "../../contract/batch/transform-jobs.ts";
import { awsSettings } from "../../tests/support/console-settings.ts";
import { startTransformJob } from "./transform-jobs.ts";

const sageMaker = mockClient(SageMakerClient);
const codeBuild = mockClient(CodeBuildClient);
const ecr = mockClient(ECRClient);
const aws = {
  sageMaker: new SageMakerClient({ region: "us-east-1" }),
  codeBuild: new CodeBuildClient({ region: "us-east-1" }),
  ecr: new ECRClient({ region: "us-east-1" }),
};
const settings = awsSettings;
const digest = `sha256:${"a".repeat(64)}`;

beforeEach(() => {
  for (const client of [sageMaker, codeBuild, ecr]) client.reset();
  codeBuild.on(BatchGetBuildsCommand).resolves({
    builds: [
      {
        id: "model-pkg:1",
        projectName: "model-pkg",
        buildStatus: "SUCCEEDED",
        exportedEnvironmentVariables: [{ name: "MODEL_DATA_URL", value: "s3://artifacts/models/a/model.tar.gz" }],
      },
    ],
  });
  ecr.on(DescribeRepositoriesCommand).resolves({
    repositories: [{ repositoryUri: "123456789012.dkr.ecr.us-east-1.amazonaws.com/decision-adapter" }],
  });
  ecr.on(DescribeImagesCommand).resolves({ imageDetails: [{ imageDigest: digest, imageTags: ["cpu-1"] }] });
  sageMaker.on(DescribeTransformJobCommand).rejects(
    Object.assign(new Error("Could not find requested job with name dc-job"), {
      name: "ValidationException",
      $metadata: { httpStatusCode: 400 },
    }),
  );
  sageMaker.on(CreateModelCommand).resolves({ ModelArn: "arn:aws:sagemaker:us-east-1:123456789012:model/dc-job" });
  sageMaker.on(DeleteModelCommand).resolves({});
});

describe("startTransformJob from a build output", () => {
  it("removes the model it created when SageMaker refuses the job (a job of that name created in between)", async () => {
    sageMaker
      .on(CreateTransformJobCommand)
      .rejects(
        new ResourceInUse({ message: "Job name must be unique within an AWS account and region", $metadata: {} }),
      );
    const request = startTransformJobSchema.parse({
      name: "dc-job",
      buildOutput: { buildId: "model-pkg:1", imageDigest: digest },
      inputS3Uri: "s3://artifacts/batch/inputs/dc-job/",
      instanceType: "ml.m5.large",
    });

    await expect(startTransformJob(aws, settings, request)).rejects.toMatchObject({ status: 409 });
    expect(sageMaker).toHaveReceivedCommandWith(CreateModelCommand, { ModelName: "dc-job" });
    expect(sageMaker).toHaveReceivedCommandWith(DeleteModelCommand, { ModelName: "dc-job" });
  });
});
