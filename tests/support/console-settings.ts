import type { ConsoleSettings } from "../../server/console-settings.ts";

/** The settings of a console on an AWS account, as the server tests' mocked clients expect them. */
export const awsSettings: ConsoleSettings = {
  mode: "aws",
  region: "us-east-1",
  executionRoleArn: "arn:aws:iam::123456789012:role/dc-execution",
  modelPackageProject: "model-pkg",
  imageBuildProject: "image-build",
  adapterRepository: "decision-adapter",
  artifactBucket: "artifacts",
  resourceNamePrefix: "dc-",
};

/** The two CodeBuild projects of those settings. */
export const buildProjects = {
  modelPackageProject: awsSettings.modelPackageProject,
  imageBuildProject: awsSettings.imageBuildProject,
};
