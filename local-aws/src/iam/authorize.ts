import type { LocalPrincipal } from "../local-credentials.ts";
import { AwsError } from "../wire/aws-error.ts";
import type { RequestContext } from "./conditions.ts";
import { type AuthorizationQuery, type Decision, evaluate, evaluateAction } from "./evaluate.ts";
import type { PolicyDocument } from "./policy.ts";
import type { LocalStackPolicies } from "./stack-policies.ts";

/** How the wire protocol reports a denial: JSON protocols `AccessDeniedException`, S3 its XML `AccessDenied`. */
export type DenialShape = "json" | "rest-json" | "s3";

export interface Denial {
  query: AuthorizationQuery;
  decision: Exclude<Decision, "Allowed">;
  principalArn: string;
}

interface Identity {
  arn: string;
  /** `User` for the console's long-term keys, `AssumedRole` for a CodeBuild job's role session. */
  type: "User" | "AssumedRole";
  policies: readonly PolicyDocument[];
}

/** AWS's wording, e.g. "User: arn:... is not authorized to perform: sagemaker:DeleteEndpoint on resource: arn:..." */
export function denialMessage(denial: Denial, shape: DenialShape): string {
  const { action, resource } = denial.query;
  const on = shape === "s3" ? `"${resource}"` : resource;
  const why =
    denial.decision === "ExplicitlyDenied"
      ? "with an explicit deny in an identity-based policy"
      : `because no identity-based policy allows the ${action} action`;
  return `User: ${denial.principalArn} is not authorized to perform: ${action} on resource: ${on} ${why}`;
}

export function accessDenied(denial: Denial, shape: DenialShape): AwsError {
  const message = denialMessage(denial, shape);
  if (shape === "s3") return new AwsError("AccessDenied", message, 403);
  return new AwsError("AccessDeniedException", message, shape === "rest-json" ? 403 : 400);
}

/**
 * Holds every principal but `admin` to the policy the CDK stack synthesises for it: the console to its managed
 * policy, each CodeBuild job to its project's role. A request passes only if every query it needs is allowed
 * (an action with two required resources, or CreateModel's iam:PassRole, is several queries).
 */
export class LocalAuthorizer {
  constructor(
    private readonly policies: LocalStackPolicies,
    private readonly accountId: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The stack's execution role, the one role SageMaker can assume in the local account. */
  get executionRoleArn(): string {
    return this.policies.executionRole.arn;
  }

  identity(principal: LocalPrincipal): Identity | undefined {
    if (principal.kind === "admin") return undefined;
    if (principal.kind === "console") return { ...this.policies.console, type: "User" };
    if (principal.kind === "execution-role") {
      // SageMaker assumes the model's role; a role the stack does not define has no policy here, so nothing is allowed.
      const known = principal.roleArn === this.policies.executionRole.arn;
      const roleName = principal.roleArn.split("/").at(-1);
      return {
        arn: `arn:aws:sts::${this.accountId}:assumed-role/${roleName}/SageMaker`,
        type: "AssumedRole",
        policies: known ? this.policies.executionRole.policies : [],
      };
    }
    const project = this.policies.projects[principal.project];
    if (!project) throw new Error(`No CodeBuild project ${principal.project} in the stack's policies`);
    const roleName = project.roleArn.split("/").at(-1);
    const session = `AWSCodeBuild-${principal.buildId.split(":").at(-1)}`;
    return {
      arn: `arn:aws:sts::${this.accountId}:assumed-role/${roleName}/${session}`,
      type: "AssumedRole",
      policies: project.policies,
    };
  }

  /** The global condition keys AWS sets on every request of this principal. */
  private globalContext(identity: Identity, region: string): RequestContext {
    const now = this.now();
    return {
      "aws:PrincipalArn": identity.type === "User" ? identity.arn : this.roleArnOf(identity.arn),
      "aws:PrincipalAccount": this.accountId,
      "aws:PrincipalType": identity.type,
      "aws:RequestedRegion": region,
      "aws:CurrentTime": now.toISOString(),
      "aws:EpochTime": String(Math.floor(now.getTime() / 1000)),
      // Local mode speaks plain HTTP on loopback.
      "aws:SecureTransport": "false",
    };
  }

  private roleArnOf(sessionArn: string): string {
    const [, , , , account, resource = ""] = sessionArn.split(":");
    const role = resource.split("/")[1];
    return `arn:aws:iam::${account}:role/${role}`;
  }

  /** The first query the principal may not perform, or undefined when all are allowed. */
  check(principal: LocalPrincipal, region: string, queries: readonly AuthorizationQuery[]): Denial | undefined {
    const identity = this.identity(principal);
    return identity ? this.checkIdentity(identity, region, queries) : undefined;
  }

  /**
   * An action local mode does not serve, on a resource it cannot name: the denial when no resource could allow it
   * (a query on `*` of the action, for AWS's message), else undefined.
   */
  checkAction(principal: LocalPrincipal, region: string, action: string): Denial | undefined {
    const identity = this.identity(principal);
    if (!identity) return undefined;
    const decision = evaluateAction(identity.policies, action);
    if (decision === "Allowed") return undefined;
    const query = { action, resource: "*", context: this.globalContext(identity, region) };
    return { query, decision, principalArn: identity.arn };
  }

  /**
   * SageMaker acting with a model's execution role (a transform job reading its input and writing its output):
   * held to the role's policies. `unknown` when the role is not the stack's execution role, the only one local mode has.
   */
  checkExecutionRole(
    roleArn: string,
    session: string,
    region: string,
    queries: readonly AuthorizationQuery[],
  ): Denial | "unknown" | undefined {
    const role = this.policies.executionRole;
    if (roleArn !== role.arn) return "unknown";
    const roleName = role.arn.split("/").at(-1);
    const arn = `arn:aws:sts::${this.accountId}:assumed-role/${roleName}/${session}`;
    return this.checkIdentity({ arn, type: "AssumedRole", policies: role.policies }, region, queries);
  }

  private checkIdentity(identity: Identity, region: string, queries: readonly AuthorizationQuery[]) {
    const global = this.globalContext(identity, region);
    for (const query of queries) {
      const { decision } = evaluate(identity.policies, { ...query, context: { ...global, ...query.context } });
      if (decision !== "Allowed") return { query, decision, principalArn: identity.arn };
    }
    return undefined;
  }

  /**
   * Whether the stack's SageMaker execution role may perform the query (SageMaker acting as the role, e.g. pulling
   * a model image); undefined for any other role, of which local mode has no policy.
   */
  executionRoleAllows(roleArn: string, query: AuthorizationQuery): boolean | undefined {
    if (roleArn !== this.policies.executionRole.arn) return undefined;
    return evaluate(this.policies.executionRole.policies, query).decision === "Allowed";
  }

  /** Throws AWS's AccessDenied error for the protocol when any query is not allowed, after telling `denied`. */
  authorize(
    principal: LocalPrincipal,
    region: string,
    queries: readonly AuthorizationQuery[],
    shape: DenialShape,
    denied: (denial: Denial) => void = () => undefined,
  ) {
    const denial = this.check(principal, region, queries);
    if (!denial) return;
    denied(denial);
    throw accessDenied(denial, shape);
  }
}
