import { type ControlPlane, DEFAULT_LOCAL_AWS_PORT, startControlPlane } from "./control-plane.ts";
import type { GpuEmulation } from "./endpoints/container-launch.ts";
import type { LocalProfile } from "./local-credentials.ts";
import type { LocalStackFixture } from "./stack-fixture.ts";
import { DEFAULT_REGION } from "./wire/request.ts";

export interface LocalStackOptions {
  /** Where the control plane keeps its database, objects, credentials and build scratch. */
  dataDir: string;
  /** The stack it stands in for (infra/ writes it; `workspaceStackFixture` in scripts/ resolves it for a checkout). */
  fixture: LocalStackFixture;
  /** Default: LOCAL_AWS_PORT, else 4599; 0 picks a free port. */
  port?: number;
  /** The prefix the stack is "deployed" with (its SageMakerNamePrefix); default the stack's `dc-`. */
  resourcePrefix?: string;
  /** Passed to the control plane; defaults come from LOCAL_AWS_SHORT_CAPACITY and LOCAL_AWS_EMULATE_GPU. */
  shortCapacity?: string[];
  gpuEmulation?: GpuEmulation;
  /** Passed to the control plane (default Date.now); the Playwright stack moves it ahead to pass alarm periods. */
  metricClock?: () => number;
}

export interface LocalStack {
  controlPlane: ControlPlane;
  /** The environment that points the console (or any AWS SDK v3 program) at this control plane. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * What makes the unchanged console talk to the local control plane: SDK v3's per-service endpoint variables, the
 * control plane's shared credentials and config files with the `console` profile (no keys in the environment),
 * a region, and the console's own local-mode settings.
 */
export function localAwsEnvironment(
  plane: Pick<ControlPlane, "url" | "credentials" | "resourcePrefix" | "bucket" | "executionRoleArn">,
  region = DEFAULT_REGION,
): Record<string, string> {
  const { url } = plane;
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
    AWS_SHARED_CREDENTIALS_FILE: plane.credentials.file,
    AWS_CONFIG_FILE: plane.credentials.configFile,
    AWS_PROFILE: "console",
    CONSOLE_MODE: "local",
    CONSOLE_ARTIFACT_BUCKET: plane.bucket,
    CONSOLE_CONTROL_PLANE_HEALTH_URL: `${url}/_local/health`,
    // The prefix the local stack's console policy allows, so the console is held to exactly that policy.
    CONSOLE_RESOURCE_PREFIX: plane.resourcePrefix,
    // The execution role of the local stack, the one role the console's policy may pass to SageMaker.
    SAGEMAKER_EXECUTION_ROLE_ARN: plane.executionRoleArn,
  };
}

/** Variables of a parent environment that would compete with the local profile or endpoints in a child's SDK. */
const COMPETING_AWS_VARIABLES = [
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AWS_ENDPOINT_URL",
  "AWS_DEFAULT_REGION",
  "AWS_WEB_IDENTITY_TOKEN_FILE",
  "AWS_ROLE_ARN",
  "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
  "AWS_CONTAINER_CREDENTIALS_FULL_URI",
];

/** `parent` pointed at the local control plane, for a console process started from it. */
export function consoleEnvironment(parent: NodeJS.ProcessEnv, stack: LocalStack): NodeJS.ProcessEnv {
  const env = { ...parent };
  for (const name of COMPETING_AWS_VARIABLES) delete env[name];
  return { ...env, ...stack.env };
}

/** Constructor options that point one SDK v3 client at the control plane, signing as `principal` (tests, scripts). */
export function localClientConfig(
  plane: Pick<ControlPlane, "url" | "credentials">,
  principal: LocalProfile = "admin",
  region = DEFAULT_REGION,
) {
  return { region, endpoint: plane.url, credentials: plane.credentials.keys[principal], maxAttempts: 1 };
}

/** Starts the local control plane the way `npm start` does; tests and Playwright use this. */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const port =
    options.port ?? (process.env.LOCAL_AWS_PORT ? Number(process.env.LOCAL_AWS_PORT) : DEFAULT_LOCAL_AWS_PORT);
  const controlPlane = await startControlPlane({
    dataDir: options.dataDir,
    fixture: options.fixture,
    port,
    resourcePrefix: options.resourcePrefix,
    shortCapacity: options.shortCapacity,
    gpuEmulation: options.gpuEmulation,
    metricClock: options.metricClock,
    // The console starts at once; restored endpoints answer invocations as soon as their adapter is ready.
    waitForEndpoints: false,
  });
  return {
    controlPlane,
    env: localAwsEnvironment(controlPlane),
    async close() {
      await controlPlane.close();
    },
  };
}
