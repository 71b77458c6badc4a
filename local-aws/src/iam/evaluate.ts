import { conditionsMatch, type RequestContext } from "./conditions.ts";
import type { PolicyDocument, Statement } from "./policy.ts";
import { actionMatches, arnMatches } from "./wildcard.ts";

/** One authorisation question: may this action be performed on this resource, in this context? */
export interface AuthorizationQuery {
  /** `service:Operation`, e.g. `sagemaker:DeleteEndpoint`. */
  action: string;
  /** The resource's ARN as the Service Authorization Reference defines it, or `*` for actions without one. */
  resource: string;
  context: RequestContext;
}

export type Decision = "Allowed" | "ExplicitlyDenied" | "ImplicitlyDenied";

export interface Evaluation {
  decision: Decision;
  /** The statements that decided it: the Deny that matched, or the Allows that did. */
  statements: { policy: string; sid?: string }[];
}

function statementApplies(statement: Statement, query: AuthorizationQuery): boolean {
  const actionListed = (patterns: string[]) => patterns.some((pattern) => actionMatches(pattern, query.action));
  const resourceListed = (patterns: string[]) => patterns.some((pattern) => arnMatches(pattern, query.resource));
  const actionOk = statement.action ? actionListed(statement.action) : !actionListed(statement.notAction ?? []);
  if (!actionOk) return false;
  const resourceOk = statement.resource
    ? resourceListed(statement.resource)
    : !resourceListed(statement.notResource ?? []);
  return resourceOk && conditionsMatch(statement.condition, query.context);
}

/**
 * IAM's evaluation logic for identity-based policies of one principal in its own account: an explicit Deny in any
 * statement wins, otherwise an Allow in any statement allows, otherwise the request is implicitly denied.
 * (No SCPs, permissions boundaries, session or resource policies: the stack defines none of them for these roles.)
 */
export function evaluate(policies: readonly PolicyDocument[], query: AuthorizationQuery): Evaluation {
  const matching = policies.flatMap((policy) =>
    policy.statements
      .filter((statement) => statementApplies(statement, query))
      .map((statement) => ({ effect: statement.effect, policy: policy.name, sid: statement.sid })),
  );
  const denies = matching.filter((m) => m.effect === "Deny");
  if (denies.length > 0)
    return { decision: "ExplicitlyDenied", statements: denies.map(({ policy, sid }) => ({ policy, sid })) };
  const allows = matching.filter((m) => m.effect === "Allow");
  if (allows.length > 0) return { decision: "Allowed", statements: allows.map(({ policy, sid }) => ({ policy, sid })) };
  return { decision: "ImplicitlyDenied", statements: [] };
}

/**
 * Whether the action could be allowed on any resource, for an operation local mode does not serve (it knows
 * neither its resource nor its condition keys): ImplicitlyDenied when no Allow statement lists the action,
 * ExplicitlyDenied when a Deny lists it on every resource without condition, else Allowed (AWS might allow it).
 */
export function evaluateAction(policies: readonly PolicyDocument[], action: string): Decision {
  const lists = (statement: Statement) =>
    statement.action
      ? statement.action.some((pattern) => actionMatches(pattern, action))
      : !(statement.notAction ?? []).some((pattern) => actionMatches(pattern, action));
  const statements = policies.flatMap((policy) => policy.statements).filter(lists);
  const everywhere = (statement: Statement) =>
    (statement.resource ?? []).includes("*") && Object.keys(statement.condition).length === 0;
  if (statements.some((statement) => statement.effect === "Deny" && everywhere(statement))) return "ExplicitlyDenied";
  return statements.some((statement) => statement.effect === "Allow") ? "Allowed" : "ImplicitlyDenied";
}
