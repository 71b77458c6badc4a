import { Stack, Validations } from "aws-cdk-lib";
import type { PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { IConstruct } from "constructs";
import { flattenReference } from "./cfn-reference.ts";

/**
 * cdk-nag's AwsSolutions-IAM5 reports every resource pattern with a `*`. Each statement of ours that has one must
 * say why (by its Sid); the finding is then acknowledged on the policy's owner with that reason. A wildcard without a
 * reason fails the synth, so a new broad grant cannot slip in unexplained.
 */
export function acknowledgeWildcardResources(
  owner: IConstruct,
  statements: readonly PolicyStatement[],
  reasons: Readonly<Record<string, string>>,
): void {
  const stack = Stack.of(owner);
  const findings = new Map<string, string[]>();
  for (const statement of statements) {
    const json = stack.resolve(statement.toStatementJson()) as { Sid?: string; Resource?: unknown };
    const resources = json.Resource === undefined ? [] : Array.isArray(json.Resource) ? json.Resource : [json.Resource];
    for (const resource of resources.map(flattenReference).filter((r) => r.includes("*"))) {
      const reason = json.Sid ? reasons[json.Sid] : undefined;
      if (!reason)
        throw new Error(`${owner.node.path}: statement ${json.Sid ?? "(no Sid)"} grants ${resource} without a reason`);
      const id = `AwsSolutions-IAM5[Resource::${resource}]`;
      findings.set(id, [...(findings.get(id) ?? []), `${json.Sid}: ${reason}`]);
    }
  }
  for (const [id, why] of findings) Validations.of(owner).acknowledge({ id, reason: why.join(" ") });
}
