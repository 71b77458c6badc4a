import { Aws, CfnOutput, type Stack } from "aws-cdk-lib";
import { consoleApi } from "../../../contract/api.ts";
import type { ConsoleSignIn } from "./console-sign-in.ts";
import { LOAD_BALANCER_IDLE_TIMEOUT_SECONDS } from "./load-balancer.ts";

export const CONSOLE_PORT = 3000;
/**
 * The console image's own CONSOLE_DATA_DIR (infra/docker/Dockerfile.console), mounted as a task volume because the
 * root filesystem is read-only.
 */
export const CONSOLE_DATA_DIR = "/var/lib/decision-console";

/**
 * How long, in milliseconds, the console's server (Next.js's standalone server.js, which reads KEEP_ALIVE_TIMEOUT;
 * Node.js's default is 5 s) keeps an idle connection from the load balancer open: a few seconds past the load
 * balancer's idle timeout, so that the load balancer, never the console, closes an idle connection. The Application
 * Load Balancers guide: "We also recommend that you configure the idle timeout of your application to be larger than
 * the idle timeout configured for the load balancer." Otherwise the load balancer may send a request on a connection
 * the console has just closed, and answer it 502.
 */
export const CONSOLE_KEEP_ALIVE_TIMEOUT_MS = (LOAD_BALANCER_IDLE_TIMEOUT_SECONDS + 5) * 1000;

/** The main stack's outputs that are console settings (infra/README.md, step 2's table). */
const SETTINGS_FROM_CONSOLE_STACK = {
  CONSOLE_ARTIFACT_BUCKET: "ArtifactBucketName",
  ECR_REPOSITORY: "AdapterRepositoryName",
  SAGEMAKER_EXECUTION_ROLE_ARN: "SageMakerExecutionRoleArn",
  CODEBUILD_MODEL_PROJECT: "ModelPackageProjectName",
  CODEBUILD_IMAGE_PROJECT: "ImageBuildProjectName",
  CONSOLE_RESOURCE_PREFIX: "SageMakerNamePrefix",
} as const;

export interface ConsoleSettingsProps {
  consoleStack: Stack;
  /** `https://<DomainName>`. */
  publicOrigin: string;
  /** The load balancer's subnets: only its X-Forwarded-* headers are believed. */
  proxyCidrs: readonly string[];
  signIn: ConsoleSignIn;
  /** Without the password, which comes as the PGPASSWORD secret. */
  databaseUrl: string;
}

/**
 * The console's environment in the hosted case (docs/settings.md), none of it secret. The main stack's values are
 * read from its outputs, so CDK turns each into a cross-stack reference (an export there, an import here).
 */
export function consoleSettings(props: ConsoleSettingsProps): Record<string, string> {
  const fromStack = Object.fromEntries(
    Object.entries(SETTINGS_FROM_CONSOLE_STACK).map(([name, outputId]) => {
      const output = props.consoleStack.node.tryFindChild(outputId);
      if (!(output instanceof CfnOutput)) {
        throw new Error(`${props.consoleStack.stackName} has no output ${outputId} (the console's ${name})`);
      }
      return [name, output.value as string];
    }),
  );
  return {
    CONSOLE_MODE: "aws",
    AWS_REGION: Aws.REGION,
    ...fromStack,
    CONSOLE_PUBLIC_ORIGIN: props.publicOrigin,
    CONSOLE_TRUSTED_PROXIES: props.proxyCidrs.join(","),
    CONSOLE_OIDC_ISSUER: props.signIn.issuer,
    CONSOLE_OIDC_CLIENT_ID: props.signIn.clientId,
    CONSOLE_OIDC_REDIRECT_URI: `${props.publicOrigin}${consoleApi.oidcCallback.path}`,
    CONSOLE_OIDC_ROLE_CLAIM: props.signIn.roleClaim,
    CONSOLE_DATABASE_URL: props.databaseUrl,
    CONSOLE_DATA_DIR,
    HOST: "0.0.0.0",
    PORT: String(CONSOLE_PORT),
    KEEP_ALIVE_TIMEOUT: String(CONSOLE_KEEP_ALIVE_TIMEOUT_MS),
  };
}
