import { managedScope } from "./auth/managed-names.ts";
import type { ConsoleConfig } from "./config.ts";

/** What the console's AWS work is configured with: the stack's names, in the domain's words. */
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

export function consoleSettings(config: ConsoleConfig): ConsoleSettings {
  const scope = managedScope(config);
  return {
    mode: config.CONSOLE_MODE,
    region: config.AWS_REGION ?? config.AWS_DEFAULT_REGION ?? null,
    executionRoleArn: config.SAGEMAKER_EXECUTION_ROLE_ARN ?? null,
    modelPackageProject: scope.buildProjects.model,
    imageBuildProject: scope.buildProjects.image,
    adapterRepository: config.ECR_REPOSITORY,
    artifactBucket: config.CONSOLE_ARTIFACT_BUCKET ?? null,
    resourceNamePrefix: scope.prefix,
  };
}
