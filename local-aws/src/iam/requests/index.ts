import { applicationAutoScalingAuthorization } from "./application-auto-scaling.ts";
import { cloudWatchAuthorization } from "./cloudwatch.ts";
import { cloudWatchLogsAuthorization } from "./cloudwatch-logs.ts";
import { codeBuildAuthorization } from "./codebuild.ts";
import { ecrAuthorization } from "./ecr.ts";
import type { OperationAuthorization } from "./facts.ts";
import { sageMakerAuthorization } from "./sagemaker.ts";

/**
 * Every JSON-protocol operation local mode serves, by the service's `X-Amz-Target` prefix. An operation missing
 * here is refused (fail closed), and a test checks that every served operation has an entry.
 */
export const jsonAuthorization: Record<string, Record<string, OperationAuthorization>> = {
  SageMaker: sageMakerAuthorization,
  CodeBuild_20161006: codeBuildAuthorization,
  AmazonEC2ContainerRegistry_V20150921: ecrAuthorization,
  Logs_20140328: cloudWatchLogsAuthorization,
  GraniteServiceVersion20100801: cloudWatchAuthorization,
  AnyScaleFrontendService: applicationAutoScalingAuthorization,
};

/** The IAM service prefix of each JSON service's actions, for operations local mode does not serve. */
export const jsonActionPrefix: Record<string, string> = {
  SageMaker: "sagemaker",
  CodeBuild_20161006: "codebuild",
  AmazonEC2ContainerRegistry_V20150921: "ecr",
  Logs_20140328: "logs",
  GraniteServiceVersion20100801: "cloudwatch",
  AnyScaleFrontendService: "application-autoscaling",
};
