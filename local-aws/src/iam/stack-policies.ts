import type { SourceType } from "@aws-sdk/client-codebuild";
import type { SynthesisedPolicies } from "../stack-fixture.ts";
import { type PolicyDocument, parsePolicyDocument } from "./policy.ts";

/** Where the local stack "is deployed": the names and place that CloudFormation would have resolved. */
export interface LocalStackPlacement {
  accountId: string;
  region: string;
  /** The prefix the stack was deployed with (CONSOLE_RESOURCE_PREFIX); lower case, as the stack requires. */
  namePrefix: string;
  /** The local artifact bucket (CloudFormation would have generated a name). */
  bucketName: string;
}

/** A CodeBuild project as the stack defines it, resolved for local mode. */
export interface LocalProjectDefinition {
  name: string;
  /** Path of the buildspec inside the build's source. */
  buildspec: string;
  sourceType: SourceType;
  /** `bucket/prefix/` of the project's default source. */
  sourceLocation: string;
  environmentVariables: Record<string, string>;
  /** Environment.PrivilegedMode: the build may run Docker (local CodeBuild stands in for the image build). */
  privilegedMode: boolean;
  /** The variables its buildspec documents as inputs: with env.variables, all a build is given of StartBuild's. */
  inputs: string[];
  roleArn: string;
}

export interface LocalProject extends LocalProjectDefinition {
  policies: PolicyDocument[];
}

export interface LocalStackPolicies {
  /** The console's identity and the managed policy attached to it. */
  console: { arn: string; policies: PolicyDocument[] };
  executionRole: { arn: string; policies: PolicyDocument[] };
  projects: Record<string, LocalProject>;
}

/** The console's local identity: an IAM user, as a shared-credentials profile with long-term keys is. */
export function consoleUserArn(accountId: string): string {
  return `arn:aws:iam::${accountId}:user/decision-console`;
}

/** CloudFormation names a role `<stack>-<logical id>-<suffix>`; locally the suffix is left out. */
export function localRoleName(logicalId: string): string {
  return `DecisionConsole-${logicalId}`;
}

/** The ARN of the stack's execution role, which local mode's console passes to CreateModel. */
export function executionRoleArnOf(stack: SynthesisedPolicies, accountId: string): string {
  return `arn:aws:iam::${accountId}:role/${localRoleName(stack.executionRole)}`;
}

/** Turns the template's intrinsics into the values CloudFormation would have produced for this placement. */
function resolver(stack: SynthesisedPolicies, placement: LocalStackPlacement) {
  const { accountId, region } = placement;
  const nameOf = (id: string): string => {
    const resource = stack.resources[id];
    if (!resource) throw new Error(`the stack fixture references unknown resource ${id}`);
    if (resource.type === "AWS::S3::Bucket") return resource.name ?? placement.bucketName;
    if (resource.type === "AWS::IAM::Role") return resource.name ?? localRoleName(id);
    if (!resource.name) throw new Error(`${id} (${resource.type}) has no name to resolve locally`);
    return resource.name;
  };
  const arnOf = (id: string): string => {
    const type = stack.resources[id]?.type;
    const name = nameOf(id);
    if (type === "AWS::S3::Bucket") return `arn:aws:s3:::${name}`;
    if (type === "AWS::IAM::Role") return `arn:aws:iam::${accountId}:role/${name}`;
    if (type === "AWS::ECR::Repository") return `arn:aws:ecr:${region}:${accountId}:repository/${name}`;
    if (type === "AWS::CodeBuild::Project") return `arn:aws:codebuild:${region}:${accountId}:project/${name}`;
    throw new Error(`no local ARN for ${id} (${type})`);
  };
  const pseudo: Record<string, string> = {
    "AWS::Partition": "aws",
    "AWS::Region": region,
    "AWS::AccountId": accountId,
    "AWS::URLSuffix": "amazonaws.com",
  };
  const resolve = (value: unknown): unknown => {
    if (typeof value === "string") return value.replaceAll(stack.namePrefixPlaceholder, placement.namePrefix);
    if (Array.isArray(value)) return value.map(resolve);
    if (typeof value !== "object" || value === null) return value;
    const object = value as Record<string, unknown>;
    if ("Ref" in object) {
      const ref = String(object.Ref);
      return pseudo[ref] ?? nameOf(ref);
    }
    if ("Fn::GetAtt" in object) {
      const [id, attribute] = object["Fn::GetAtt"] as [string, string];
      if (attribute !== "Arn") throw new Error(`Fn::GetAtt ${id}.${attribute} is not resolved locally`);
      return arnOf(id);
    }
    if ("Fn::FindInMap" in object) {
      const [map, key, attribute] = object["Fn::FindInMap"] as [string, unknown, string];
      const value = stack.mappings[map]?.[String(resolve(key))]?.[attribute];
      if (value === undefined) throw new Error(`Fn::FindInMap ${map} has no ${String(resolve(key))}.${attribute}`);
      return value;
    }
    if ("Fn::Join" in object) {
      const [separator, parts] = object["Fn::Join"] as [string, unknown[]];
      return parts.map((part) => String(resolve(part))).join(separator);
    }
    const intrinsic = Object.keys(object).find((key) => key.startsWith("Fn::"));
    if (intrinsic) throw new Error(`${intrinsic} is not resolved locally`);
    return Object.fromEntries(Object.entries(object).map(([key, v]) => [key, resolve(v)]));
  };
  return { resolve, arnOf };
}

function projectDefinitions(
  stack: SynthesisedPolicies,
  resolve: (value: unknown) => unknown,
  arnOf: (id: string) => string,
): Record<string, LocalProjectDefinition> {
  return Object.fromEntries(
    stack.projects.map((project) => [
      project.name,
      {
        name: project.name,
        buildspec: project.buildspec,
        // The synthesised template's Source.Type, one of CodeBuild's source types.
        sourceType: project.sourceType as SourceType,
        sourceLocation: String(resolve(project.sourceLocation)),
        environmentVariables: Object.fromEntries(
          project.environmentVariables.map((v) => [v.name, String(resolve(v.value))]),
        ),
        privilegedMode: project.privilegedMode,
        inputs: project.inputs,
        roleArn: arnOf(project.serviceRole),
      },
    ]),
  );
}

/** The stack's CodeBuild projects (name, buildspec path, default source, environment) as local mode runs them. */
export function loadStackProjects(
  stack: SynthesisedPolicies,
  placement: Omit<LocalStackPlacement, "namePrefix">,
): Record<string, LocalProjectDefinition> {
  const { resolve, arnOf } = resolver(stack, { ...placement, namePrefix: stack.namePrefixPlaceholder });
  return projectDefinitions(stack, resolve, arnOf);
}

/**
 * The stack's policies as they would stand deployed with this placement: console, CodeBuild roles and execution
 * role, parsed strictly (see policy.ts) so that every one of their statements is evaluated as written.
 */
export function loadStackPolicies(stack: SynthesisedPolicies, placement: LocalStackPlacement) {
  if (!/^[a-z0-9][a-z0-9-]{0,20}$/.test(placement.namePrefix)) {
    throw new Error(
      `The resource prefix "${placement.namePrefix}" must be 1-21 lower-case letters, digits or hyphens.`,
    );
  }
  const { resolve, arnOf } = resolver(stack, placement);
  const rolePolicies = (roleId: string): PolicyDocument[] => {
    const role = stack.roles[roleId];
    if (!role) throw new Error(`the stack fixture has no role ${roleId}`);
    return role.policies.map((p) => parsePolicyDocument(`${localRoleName(roleId)}/${p.name}`, resolve(p.document)));
  };
  const consoleDocument = stack.managedPolicies[stack.consolePolicy]?.document;
  const projects: Record<string, LocalProject> = {};
  for (const project of stack.projects) {
    const definition = projectDefinitions(stack, resolve, arnOf)[project.name] as LocalProjectDefinition;
    projects[project.name] = { ...definition, policies: rolePolicies(project.serviceRole) };
  }
  const policies: LocalStackPolicies = {
    console: {
      arn: consoleUserArn(placement.accountId),
      policies: [parsePolicyDocument(stack.consolePolicy, resolve(consoleDocument))],
    },
    executionRole: { arn: arnOf(stack.executionRole), policies: rolePolicies(stack.executionRole) },
    projects,
  };
  return policies;
}
