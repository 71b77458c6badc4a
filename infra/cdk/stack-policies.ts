import type { SynthesisedPolicies } from "@decision-console/local-aws";
import { App } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { PACKAGER_VARIABLES } from "../packager/packager-env.ts";
import { DecisionConsoleStack } from "./decision-console-stack.ts";

/**
 * Local mode holds the console and the CodeBuild jobs to the IAM policies this stack synthesises. Synthesising on
 * every start would load aws-cdk-lib into the console, so the parts local mode needs are committed as JSON
 * (`infra/local-stack/stack-policies.json`, written by `npm run synth:local-policies`; `workspace-fixture.ts` hands it to local mode) with their CloudFormation
 * intrinsics kept; a test fails when the file differs from a fresh synth. The name prefix is synthesised as
 * NAME_PREFIX_PLACEHOLDER and replaced by the local prefix when the policies are loaded.
 */
export const NAME_PREFIX_PLACEHOLDER = "dcprefixplaceholder-";

export const STACK_POLICIES_PATH = "infra/local-stack/stack-policies.json";

interface CfnResource {
  Type: string;
  Properties?: Record<string, unknown>;
}

/** The inputs each buildspec documents beyond its own `env.variables` (the model packager reads its environment). */
const BUILDSPEC_INPUTS: Record<string, readonly string[]> = {
  "infra/buildspecs/model-package.yml": PACKAGER_VARIABLES,
};

function logicalIdOf(value: unknown, what: string): string {
  const object = value as { Ref?: string; "Fn::GetAtt"?: [string, string] };
  const id = object?.Ref ?? object?.["Fn::GetAtt"]?.[0];
  if (!id) throw new Error(`${what} does not reference a resource: ${JSON.stringify(value)}`);
  return id;
}

const physicalName: Record<string, string> = {
  "AWS::ECR::Repository": "RepositoryName",
  "AWS::CodeBuild::Project": "Name",
  "AWS::S3::Bucket": "BucketName",
  "AWS::IAM::Role": "RoleName",
};

/** The parts of a synthesised template that local mode evaluates requests against. */
export function policiesOfTemplate(template: {
  Resources: Record<string, CfnResource>;
  Outputs: Record<string, { Value: unknown }>;
  Mappings?: SynthesisedPolicies["mappings"];
}): SynthesisedPolicies {
  const resources: SynthesisedPolicies["resources"] = {};
  const roles: SynthesisedPolicies["roles"] = {};
  const managedPolicies: SynthesisedPolicies["managedPolicies"] = {};
  const projects: SynthesisedPolicies["projects"] = [];
  for (const [id, resource] of Object.entries(template.Resources)) {
    const props = resource.Properties ?? {};
    const nameProperty = physicalName[resource.Type];
    if (nameProperty) {
      const name = props[nameProperty];
      resources[id] = { type: resource.Type, ...(typeof name === "string" ? { name } : {}) };
    }
    if (resource.Type === "AWS::IAM::Role") {
      const inline = (props.Policies as { PolicyName: string; PolicyDocument: unknown }[] | undefined) ?? [];
      if (props.ManagedPolicyArns) throw new Error(`${id}: attached managed policies by ARN are not evaluated locally`);
      roles[id] = { policies: inline.map((p) => ({ name: p.PolicyName, document: p.PolicyDocument })) };
    }
    if (resource.Type === "AWS::IAM::ManagedPolicy") managedPolicies[id] = { document: props.PolicyDocument };
    if (resource.Type === "AWS::IAM::Policy") throw new Error(`${id}: a separate AWS::IAM::Policy is not expected`);
    if (resource.Type === "AWS::CodeBuild::Project") {
      const source = props.Source as { Type: string; Location: unknown; BuildSpec: string };
      const environment = props.Environment as {
        EnvironmentVariables?: { Name: string; Value: unknown }[];
        PrivilegedMode?: boolean;
      };
      projects.push({
        name: String(props.Name),
        serviceRole: logicalIdOf(props.ServiceRole, `${id}.ServiceRole`),
        buildspec: source.BuildSpec,
        sourceType: source.Type,
        sourceLocation: source.Location,
        environmentVariables: (environment.EnvironmentVariables ?? []).map((v) => ({ name: v.Name, value: v.Value })),
        privilegedMode: environment.PrivilegedMode === true,
        inputs: [...(BUILDSPEC_INPUTS[source.BuildSpec] ?? [])],
      });
    }
  }
  for (const [id, resource] of Object.entries(template.Resources)) {
    if (resource.Type !== "AWS::IAM::ManagedPolicy") continue;
    for (const role of (resource.Properties?.Roles as unknown[] | undefined) ?? []) {
      roles[logicalIdOf(role, `${id}.Roles`)]?.policies.push({
        name: id,
        document: resource.Properties?.PolicyDocument,
      });
    }
  }
  return {
    generatedBy: "npm run synth:local-policies (infra/cdk/stack-policies.ts); do not edit",
    namePrefixPlaceholder: NAME_PREFIX_PLACEHOLDER,
    consolePolicy: logicalIdOf(template.Outputs.ConsolePolicyArn?.Value, "output ConsolePolicyArn"),
    executionRole: logicalIdOf(template.Outputs.SageMakerExecutionRoleArn?.Value, "output SageMakerExecutionRoleArn"),
    resources,
    mappings: template.Mappings ?? {},
    roles,
    managedPolicies,
    projects,
  };
}

/** Synthesises the stack (offline) with the placeholder prefix and extracts its policies. */
export function synthesiseStackPolicies(): SynthesisedPolicies {
  const stack = new DecisionConsoleStack(new App(), "DecisionConsole", {
    sageMakerNamePrefix: NAME_PREFIX_PLACEHOLDER,
  });
  return policiesOfTemplate(Template.fromStack(stack).toJSON() as Parameters<typeof policiesOfTemplate>[0]);
}

export function serialise(policies: SynthesisedPolicies): string {
  return `${JSON.stringify(policies, null, 2)}\n`;
}
