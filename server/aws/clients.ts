import { ApplicationAutoScalingClient } from "@aws-sdk/client-application-auto-scaling";
import { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import { CloudWatchLogsClient } from "@aws-sdk/client-cloudwatch-logs";
import { CodeBuildClient } from "@aws-sdk/client-codebuild";
import { ECRClient } from "@aws-sdk/client-ecr";
import { S3Client } from "@aws-sdk/client-s3";
import { SageMakerClient, type SageMakerClientConfig } from "@aws-sdk/client-sagemaker";
import { SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import { type ConsoleConfig, consoleConfig } from "../config.ts";
import { captureRequests } from "./request-capture.ts";
import { noteRequestIds } from "./request-ids.ts";

/** Every AWS client the console uses. Functions in server/ receive the ones they need; none is a module singleton. */
export interface AwsClients {
  sageMaker: SageMakerClient;
  runtime: SageMakerRuntimeClient;
  codeBuild: CodeBuildClient;
  ecr: ECRClient;
  s3: S3Client;
  cloudWatch: CloudWatchClient;
  logs: CloudWatchLogsClient;
  autoScaling: ApplicationAutoScalingClient;
}

export interface AwsClientOptions {
  /** Defaults to AWS_REGION, then AWS_DEFAULT_REGION; the SDK reports a missing region on first use. */
  region?: string;
  /** One endpoint for every service (tests' local control plane); by default the SDK's own resolution. */
  endpoint?: string;
  /** By default the SDK's credential chain. */
  credentials?: SageMakerClientConfig["credentials"];
  /** Attempts per command; by default the SDK's (3). */
  maxAttempts?: number;
}

/**
 * Builds the clients, by default with the SDK's credential chain. Endpoint overrides in the environment need no code
 * here: SDK v3 reads `AWS_ENDPOINT_URL_<SERVICE_ID>` (e.g. AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME) and `AWS_ENDPOINT_URL`
 * itself, which is how local mode points the same code at its loopback control plane.
 */
export type AwsSettings = Pick<
  ConsoleConfig,
  "AWS_REGION" | "AWS_DEFAULT_REGION" | "AWS_ENDPOINT_URL" | "AWS_ENDPOINT_URL_S3"
>;

export function createAwsClients(options: AwsClientOptions = {}, settings: AwsSettings = consoleConfig()): AwsClients {
  const { endpoint, credentials, maxAttempts } = options;
  const region = options.region ?? settings.AWS_REGION ?? settings.AWS_DEFAULT_REGION;
  const common = {
    ...(region ? { region } : {}),
    ...(endpoint ? { endpoint } : {}),
    ...(credentials ? { credentials } : {}),
    ...(maxAttempts ? { maxAttempts } : {}),
  };
  // A loopback S3 cannot serve virtual-hosted bucket names (bucket.127.0.0.1), so any S3 override uses path style.
  const s3Overridden = Boolean(endpoint || settings.AWS_ENDPOINT_URL_S3 || settings.AWS_ENDPOINT_URL);
  const clients: AwsClients = {
    sageMaker: new SageMakerClient(common),
    runtime: new SageMakerRuntimeClient(common),
    codeBuild: new CodeBuildClient(common),
    ecr: new ECRClient(common),
    s3: new S3Client({ ...common, forcePathStyle: s3Overridden }),
    cloudWatch: new CloudWatchClient(common),
    logs: new CloudWatchLogsClient(common),
    autoScaling: new ApplicationAutoScalingClient(common),
  };
  // The capture switch is the test harness's, so it is the process's, whatever `settings` a caller passes.
  const captureFolder = consoleConfig().CONSOLE_REQUEST_CAPTURE;
  for (const client of Object.values(clients)) noteRequestIds(captureRequests(client, captureFolder));
  return clients;
}

export function destroyAwsClients(clients: AwsClients): void {
  for (const client of Object.values(clients)) client.destroy();
}
