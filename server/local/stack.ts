import { resolveDataDir } from "../store/database.ts";
import { LOCAL_ARTIFACT_BUCKET } from "./builds/build-runner.ts";
import { type ControlPlane, DEFAULT_LOCAL_AWS_PORT, startControlPlane } from "./control-plane.ts";
import type { GpuEmulation } from "./endpoints/endpoint-runner.ts";
import { localExecutionRoleArn } from "./iam/stack-policies.ts";
import { type SeedModel, seedModels } from "./seed.ts";
import { DEFAULT_REGION, LOCAL_ACCOUNT_ID } from "./wire/request.ts";

export interface LocalStackOptions {
  /** Default: CONSOLE_DATA_DIR, else `.console-data`. */
  dataDir?: string;
  /** Default: LOCAL_AWS_PORT, else 4599; 0 picks a free port. */
  port?: number;
  /** Package the first-run models into the local S3 (default true). */
  seed?: boolean;
  /** Passed to the control plane; defaults come from LOCAL_AWS_SHORT_CAPACITY and LOCAL_AWS_EMULATE_GPU. */
  shortCapacity?: string[];
  gpuEmulation?: GpuEmulation;
}

export interface LocalStack {
  controlPlane: ControlPlane;
  /** The environment that points the console (or any AWS SDK v3 program) at this control plane. */
  env: Record<string, string>;
  /** Resolves with the seeded models once they are in the local S3. */
  seeded: Promise<SeedModel[]>;
  close(): Promise<void>;
}

/**
 * What makes the unchanged console talk to the local control plane: SDK v3's per-service endpoint variables,
 * dummy credentials and a region, and the console's own local-mode settings.
 */
export function localAwsEnvironment(url: string, region = DEFAULT_REGION): Record<string, string> {
  return {
    AWS_ENDPOINT_URL_SAGEMAKER: url,
    AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME: url,
    AWS_ENDPOINT_URL_CODEBUILD: url,
    AWS_ENDPOINT_URL_ECR: url,
    AWS_ENDPOINT_URL_S3: url,
    AWS_ENDPOINT_URL_CLOUDWATCH: url,
    AWS_ENDPOINT_URL_CLOUDWATCH_LOGS: url,
    AWS_ENDPOINT_URL_APPLICATION_AUTO_SCALING: url,
    AWS_REGION: region,
    AWS_ACCESS_KEY_ID: "local",
    AWS_SECRET_ACCESS_KEY: "local",
    CONSOLE_MODE: "local",
    CONSOLE_ARTIFACT_BUCKET: LOCAL_ARTIFACT_BUCKET,
    // The execution role of the local stack, the one role the console's policy may pass to SageMaker.
    SAGEMAKER_EXECUTION_ROLE_ARN: localExecutionRoleArn(LOCAL_ACCOUNT_ID),
  };
}

/** Constructor options that point one SDK v3 client at the control plane explicitly (tests). */
export function localClientConfig(url: string, region = DEFAULT_REGION) {
  return { region, endpoint: url, credentials: { accessKeyId: "local", secretAccessKey: "local" }, maxAttempts: 1 };
}

/** Starts the local control plane (and seeds it) the way `npm start` does; tests and Playwright use this. */
export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const port =
    options.port ?? (process.env.LOCAL_AWS_PORT ? Number(process.env.LOCAL_AWS_PORT) : DEFAULT_LOCAL_AWS_PORT);
  const controlPlane = await startControlPlane({
    dataDir: options.dataDir ?? resolveDataDir(),
    port,
    shortCapacity: options.shortCapacity,
    gpuEmulation: options.gpuEmulation,
    // The console starts at once; restored endpoints answer invocations as soon as their adapter is ready.
    waitForEndpoints: false,
  });
  const seeded = options.seed === false ? Promise.resolve([]) : seedModels(controlPlane);
  seeded.catch(() => undefined);
  return {
    controlPlane,
    env: localAwsEnvironment(controlPlane.url),
    seeded,
    async close() {
      await seeded.catch(() => undefined);
      await controlPlane.close();
    },
  };
}
