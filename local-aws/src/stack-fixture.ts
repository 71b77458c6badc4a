/**
 * What the caller tells the control plane about the stack it stands in for. Local mode owns this shape; `infra/`
 * produces it (`npm run synth:local-policies`), and whoever starts a control plane resolves it for its machine
 * (paths absolute): the emulator itself knows no workspace, no program and no bucket of its own.
 */
export interface LocalStackFixture {
  stack: SynthesisedPolicies;
  /** The stack's artifact bucket (CloudFormation would have generated its name). */
  bucket: string;
  /** The repositories local ECR holds, and what an instance of each of their images runs. */
  imageRepositories: ImageRepositoryFixture[];
  /** What the CodeBuild image provides a build besides its source: the toolchain's installed packages. */
  buildImage: { nodeModules: string; lockfile: string };
}

/** The two images every repository of the stack publishes (the CPU and the CUDA build of one source). */
export type ImageVariant = "cpu" | "cuda";

/**
 * The container contract an image follows: the adapter's (`SAGEMAKER_BIND_TO_PORT`, `ADAPTER_*`) or the llama.cpp
 * DLC's entrypoint (`SM_LLAMA_CPP_*`); it decides which of a model's variables reach an instance.
 */
export type ContainerContract = "adapter" | "llama-server";

export interface ImageRepositoryFixture {
  name: string;
  /**
   * The account whose registry holds it: absent for the local account; `{ mapping }` for an account per Region
   * from the stack's Mappings (the DLC's `LlamaCppDlcAccounts`).
   */
  registry?: { mapping: string };
  contract: ContainerContract;
  /** What an instance of each variant's image runs. */
  programs: Record<ImageVariant, InstanceProgram>;
  /**
   * The files an image is built from, relative to `sourceRoot`: an image's digest is the hash of their bytes (and a
   * build's image that of its own source's files at the same paths).
   */
  sourceRoot: string;
  sources: string[];
}

/** A command an instance runs: Node's arguments (after Node's own) and its working directory. */
export interface InstanceProgram {
  args: string[];
  cwd: string;
}

/**
 * The IAM half of the stack local mode stands in for, as the CDK app synthesises it: its policies, resources and
 * CodeBuild projects, with CloudFormation's intrinsics kept.
 */
export interface SynthesisedPolicies {
  generatedBy: string;
  namePrefixPlaceholder: string;
  /** Logical id of the managed policy the console's identity gets (output ConsolePolicyArn). */
  consolePolicy: string;
  /** Logical id of the role SageMaker assumes (output SageMakerExecutionRoleArn). */
  executionRole: string;
  /** What local mode needs to turn Ref / Fn::GetAtt into names and ARNs. */
  resources: Record<string, { type: string; name?: string }>;
  /** The template's Mappings, for Fn::FindInMap (the llama.cpp DLC's account per Region). */
  mappings: Record<string, Record<string, Record<string, string>>>;
  /** Each role's inline policies and the managed policies attached to it. */
  roles: Record<string, { policies: { name: string; document: unknown }[] }>;
  managedPolicies: Record<string, { document: unknown }>;
  projects: {
    name: string;
    serviceRole: string;
    buildspec: string;
    sourceType: string;
    sourceLocation: unknown;
    environmentVariables: { name: string; value: unknown }[];
    /** Environment.PrivilegedMode: the build may run a Docker daemon (CodeBuild requires it to build images). */
    privilegedMode: boolean;
    /** The variables the project's buildspec documents as its inputs (StartBuild may override them). */
    inputs: string[];
  }[];
}
