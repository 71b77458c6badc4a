import "server-only";
import { managedScope } from "./auth/managed-names.ts";
import { type AwsClients, createAwsClients } from "./aws/clients.ts";
import { EndpointSummaryCache } from "./endpoints/summary-cache.ts";
import { type EndpointChecker, servingEndpointChecker } from "./evaluate/endpoint-configuration.ts";
import type { EndpointInvoker } from "./evaluate/runs/invoker.ts";
import type { RunnerDeps } from "./evaluate/runs/runner.ts";
import { sageMakerInvoker } from "./evaluate/runs/sagemaker-invoker.ts";
import { consoleDatabase } from "./store/console-database.ts";
import type { Db } from "./store/database.ts";

export interface ConsoleSettings {
  /** `local` when started against the local control plane (its start script sets CONSOLE_MODE=local). */
  mode: "local" | "aws";
  region: string | null;
  executionRoleArn: string | null;
  modelPackageProject: string;
  imageBuildProject: string;
  /** ECR repository of the adapter images. */
  adapterRepository: string;
  /** Bucket for build sources; the IaC stack's artifact bucket. */
  artifactBucket: string | null;
  /** Names the console's IAM policy allows (the stack's SageMakerNamePrefix); null: any name. */
  resourceNamePrefix: string | null;
}

export function consoleSettings(env: NodeJS.ProcessEnv = process.env): ConsoleSettings {
  const scope = managedScope(env);
  return {
    mode: env.CONSOLE_MODE === "local" ? "local" : "aws",
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || null,
    executionRoleArn: env.SAGEMAKER_EXECUTION_ROLE_ARN || null,
    modelPackageProject: scope.buildProjects.model,
    imageBuildProject: scope.buildProjects.image,
    adapterRepository: env.ECR_REPOSITORY || "decision-adapter",
    artifactBucket: env.CONSOLE_ARTIFACT_BUCKET || null,
    resourceNamePrefix: scope.prefix,
  };
}

export interface ConsoleContext {
  aws: AwsClients;
  db: Db;
  settings: ConsoleSettings;
  endpointSummaries: EndpointSummaryCache;
  /** The evaluation runner's InvokeEndpoint and DescribeEndpoint, on the same clients. */
  evaluation: { invoke: EndpointInvoker; checkEndpoint: EndpointChecker };
}

function build(): Omit<ConsoleContext, "db"> {
  const aws = createAwsClients();
  const settings = consoleSettings();
  return {
    aws,
    settings,
    endpointSummaries: new EndpointSummaryCache(consoleDatabase()),
    evaluation: {
      invoke: sageMakerInvoker(aws, { artifactBucket: settings.artifactBucket, db: consoleDatabase }),
      checkEndpoint: servingEndpointChecker(aws),
    },
  };
}

/**
 * The console's one composition root: what route handlers and start-up work with, built on first use and kept on
 * `globalThis` (Next.js may load route modules more than once per process). Nothing here talks to AWS until a
 * handler sends a command.
 */
export function consoleContext(): ConsoleContext {
  const store = globalThis as { __consoleContext?: Omit<ConsoleContext, "db"> };
  store.__consoleContext ??= build();
  return { ...store.__consoleContext, db: consoleDatabase() };
}

/** What the evaluation routes and the start-up resume work with: the console database and the runner's calls. */
export function evaluationDeps(): RunnerDeps & { checkEndpoint: EndpointChecker } {
  const { db, evaluation, aws, settings } = consoleContext();
  return { db, ...evaluation, batch: { aws, settings } };
}
