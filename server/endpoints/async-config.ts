import type { AsyncInferenceConfig, DescribeEndpointConfigOutput } from "@aws-sdk/client-sagemaker";
import { defaultParallel } from "@decision-console/adapter/contract/parallel-default.ts";
import type { AsyncInferenceDetail } from "../../contract/endpoints/async-inference.ts";
import type { DeployRequest } from "../../contract/endpoints/deploy.ts";
import { asyncInferenceFolder } from "../../contract/stack/console-contract.ts";
import { AppError } from "../http/app-error.ts";

/**
 * The endpoint configuration's AsyncInferenceConfig for an asynchronous deployment: answers and failures under
 * `async/<endpoint>/out/` and `.../failed/` of the artifact bucket (the only folders the execution role may write),
 * at most MaxConcurrentInvocationsPerInstance requests per instance (the adapter's ADAPTER_PARALLEL unless given),
 * SNS notifications only to topics named with the console's prefix (the only ones the execution role may publish
 * to). Undefined for a real-time deployment.
 */
export function asyncInferenceConfig(
  request: DeployRequest,
  artifactBucket: string | null,
  resourceNamePrefix: string | null | undefined,
): AsyncInferenceConfig | undefined {
  const { invocation } = request;
  if (invocation.mode !== "asynchronous") return undefined;
  if (!artifactBucket) {
    throw new AppError(
      "bad_request",
      "invocation: asynchronous endpoints keep requests and answers in the artifact bucket; set CONSOLE_ARTIFACT_BUCKET for the console.",
    );
  }
  for (const [field, topic] of [
    ["successTopic", invocation.successTopic],
    ["errorTopic", invocation.errorTopic],
  ] as const) {
    const topicName = topic?.split(":").at(-1) ?? "";
    if (topic && resourceNamePrefix && !topicName.startsWith(resourceNamePrefix)) {
      throw new AppError(
        "bad_request",
        `invocation.${field}: the topic must be named with "${resourceNamePrefix}"; the execution role may publish only to those topics.`,
      );
    }
  }
  const backend = request.compute.kind === "cpu" ? "cpu" : "cuda";
  const notification =
    invocation.successTopic || invocation.errorTopic
      ? {
          NotificationConfig: {
            ...(invocation.successTopic ? { SuccessTopic: invocation.successTopic } : {}),
            ...(invocation.errorTopic ? { ErrorTopic: invocation.errorTopic } : {}),
          },
        }
      : {};
  return {
    OutputConfig: {
      S3OutputPath: `s3://${artifactBucket}/${asyncInferenceFolder(request.name, "responses")}`,
      S3FailurePath: `s3://${artifactBucket}/${asyncInferenceFolder(request.name, "failures")}`,
      ...notification,
    },
    ClientConfig: {
      MaxConcurrentInvocationsPerInstance:
        invocation.maxConcurrentInvocationsPerInstance ?? request.parallel ?? defaultParallel(backend),
    },
  };
}

export function asyncInferenceDetail(config: DescribeEndpointConfigOutput | null): AsyncInferenceDetail | null {
  const async = config?.AsyncInferenceConfig;
  if (!async) return null;
  const output = async.OutputConfig;
  return {
    outputPath: output?.S3OutputPath ?? null,
    failurePath: output?.S3FailurePath ?? null,
    maxConcurrentInvocationsPerInstance: async.ClientConfig?.MaxConcurrentInvocationsPerInstance ?? null,
    successTopic: output?.NotificationConfig?.SuccessTopic ?? null,
    errorTopic: output?.NotificationConfig?.ErrorTopic ?? null,
  };
}
