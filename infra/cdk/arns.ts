import { Aws } from "aws-cdk-lib";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import {
  ARTIFACT_PREFIXES,
  ASYNC_INFERENCE_FOLDERS,
  type AsyncInferenceFolder,
  TRANSFORM_JOB_LOG_GROUP,
} from "../../contract/stack/console-contract.ts";

/** An ARN in this stack's partition, region and account: `arn:<partition>:<service>:<region>:<account>:<resource>`. */
export function regionalArn(service: string, resource: string): string {
  return `arn:${Aws.PARTITION}:${service}:${Aws.REGION}:${Aws.ACCOUNT_ID}:${resource}`;
}

/** A log group and every stream in it (`CreateLogStream` and `PutLogEvents` name the stream). */
export function logGroupArns(logGroupName: string): string[] {
  return [regionalArn("logs", `log-group:${logGroupName}`), regionalArn("logs", `log-group:${logGroupName}:*`)];
}

/** SageMaker writes an endpoint's container logs to this group. */
export function endpointLogGroup(namePrefix: string): string {
  return `/aws/sagemaker/Endpoints/${namePrefix}*`;
}

export function codeBuildLogGroup(projectName: string): string {
  return `/aws/codebuild/${projectName}`;
}

/**
 * The keys of one asynchronous-inference folder (in, out or failed) of the endpoints whose names start with
 * `endpointPrefix` (every endpoint when it is empty), as a StringLike pattern.
 */
export function asyncFolderKeys(folder: AsyncInferenceFolder, endpointPrefix = ""): string {
  return `${ARTIFACT_PREFIXES.async}${endpointPrefix}*/${ASYNC_INFERENCE_FOLDERS[folder]}/*`;
}

/** The objects of one asynchronous-inference folder (in, out or failed) of those endpoints under `async/`. */
export function asyncFolderObjects(bucket: IBucket, folder: AsyncInferenceFolder, endpointPrefix = ""): string {
  return bucket.arnForObjects(asyncFolderKeys(folder, endpointPrefix));
}

/** The log streams of the transform jobs named with the prefix. */
export function transformJobLogStreams(namePrefix: string): string {
  return regionalArn("logs", `log-group:${TRANSFORM_JOB_LOG_GROUP}:log-stream:${namePrefix}*`);
}
