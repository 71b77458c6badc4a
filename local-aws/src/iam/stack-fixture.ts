/**
 * The stack local mode stands in for, as the CDK app synthesises it (`npm run synth:local-policies` writes
 * `stack-policies.json`): its IAM policies, resources and CodeBuild projects, with CloudFormation's intrinsics
 * kept. Local mode owns this shape; infra/ produces it.
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
