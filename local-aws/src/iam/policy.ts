/**
 * IAM identity-based policy documents as the evaluator reads them. Parsing is strict: an element the evaluator
 * does not implement (policy variables, `Principal` in an identity policy, an unknown operator) is refused when the
 * policy is loaded, so nothing is ever silently allowed because it was not understood.
 */

export type Effect = "Allow" | "Deny";

/** `{ Operator: { ConditionKey: [values] } }`, values as strings (IAM compares the JSON values' text). */
export type ConditionBlock = Record<string, Record<string, string[]>>;

export interface Statement {
  sid?: string;
  effect: Effect;
  /** Exactly one of `action` and `notAction` is set. */
  action?: string[];
  notAction?: string[];
  /** Exactly one of `resource` and `notResource` is set. */
  resource?: string[];
  notResource?: string[];
  condition: ConditionBlock;
}

export interface PolicyDocument {
  name: string;
  statements: Statement[];
  /** The document as written (resolved JSON), for tools that read IAM's own format. */
  document: unknown;
}

export const CONDITION_OPERATORS = [
  "StringEquals",
  "StringNotEquals",
  "StringEqualsIgnoreCase",
  "StringNotEqualsIgnoreCase",
  "StringLike",
  "StringNotLike",
  "NumericEquals",
  "NumericNotEquals",
  "NumericLessThan",
  "NumericLessThanEquals",
  "NumericGreaterThan",
  "NumericGreaterThanEquals",
  "DateEquals",
  "DateNotEquals",
  "DateLessThan",
  "DateLessThanEquals",
  "DateGreaterThan",
  "DateGreaterThanEquals",
  "Bool",
  "BinaryEquals",
  "IpAddress",
  "NotIpAddress",
  "ArnEquals",
  "ArnLike",
  "ArnNotEquals",
  "ArnNotLike",
  "Null",
] as const;

export type BaseOperator = (typeof CONDITION_OPERATORS)[number];

export interface ParsedOperator {
  base: BaseOperator;
  set?: "ForAllValues" | "ForAnyValue";
  ifExists: boolean;
}

/** `ForAnyValue:StringLikeIfExists` -> {set, base, ifExists}; undefined for a name IAM does not define. */
export function parseOperator(name: string): ParsedOperator | undefined {
  const [first, second] = name.split(":");
  const set = second === undefined ? undefined : first;
  if (set !== undefined && set !== "ForAllValues" && set !== "ForAnyValue") return undefined;
  let base = second ?? first ?? "";
  const ifExists = base.endsWith("IfExists") && base !== "IfExists";
  if (ifExists) base = base.slice(0, -"IfExists".length);
  if (!(CONDITION_OPERATORS as readonly string[]).includes(base)) return undefined;
  // IAM refuses Null with IfExists (it already is an existence test).
  if (base === "Null" && (ifExists || set)) return undefined;
  return { base: base as BaseOperator, set, ifExists };
}

export class PolicyError extends Error {}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

function strings(value: unknown, where: string): string[] {
  const items = list(value);
  if (items.length === 0) throw new PolicyError(`${where} is empty`);
  return items.map((item) => {
    if (typeof item !== "string" || item === "") throw new PolicyError(`${where} must list non-empty strings`);
    if (item.includes("${")) throw new PolicyError(`${where}: policy variables are not supported (${item})`);
    return item;
  });
}

function conditionValues(value: unknown, where: string): string[] {
  return list(value).map((item) => {
    if (typeof item === "string") {
      if (item.includes("${")) throw new PolicyError(`${where}: policy variables are not supported (${item})`);
      return item;
    }
    if (typeof item === "number" || typeof item === "boolean") return String(item);
    throw new PolicyError(`${where} must hold strings, numbers or booleans`);
  });
}

function parseCondition(value: unknown, where: string): ConditionBlock {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new PolicyError(`${where} must be an object`);
  const block: ConditionBlock = {};
  for (const [operator, keys] of Object.entries(value)) {
    if (!parseOperator(operator)) throw new PolicyError(`${where}: unknown condition operator ${operator}`);
    if (typeof keys !== "object" || keys === null || Array.isArray(keys))
      throw new PolicyError(`${where}.${operator} must map condition keys to values`);
    block[operator] = {};
    for (const [key, values] of Object.entries(keys)) {
      block[operator][key] = conditionValues(values, `${where}.${operator}.${key}`);
    }
  }
  return block;
}

const STATEMENT_FIELDS = new Set(["Sid", "Effect", "Action", "NotAction", "Resource", "NotResource", "Condition"]);

function parseStatement(value: unknown, where: string): Statement {
  if (typeof value !== "object" || value === null) throw new PolicyError(`${where} must be an object`);
  const raw = value as Record<string, unknown>;
  for (const field of Object.keys(raw)) {
    if (!STATEMENT_FIELDS.has(field))
      throw new PolicyError(`${where}: ${field} is not supported in an identity-based policy`);
  }
  if (raw.Effect !== "Allow" && raw.Effect !== "Deny") throw new PolicyError(`${where}.Effect must be Allow or Deny`);
  if ((raw.Action === undefined) === (raw.NotAction === undefined))
    throw new PolicyError(`${where} needs exactly one of Action and NotAction`);
  if ((raw.Resource === undefined) === (raw.NotResource === undefined))
    throw new PolicyError(`${where} needs exactly one of Resource and NotResource`);
  return {
    sid: typeof raw.Sid === "string" ? raw.Sid : undefined,
    effect: raw.Effect,
    action: raw.Action === undefined ? undefined : strings(raw.Action, `${where}.Action`),
    notAction: raw.NotAction === undefined ? undefined : strings(raw.NotAction, `${where}.NotAction`),
    resource: raw.Resource === undefined ? undefined : strings(raw.Resource, `${where}.Resource`),
    notResource: raw.NotResource === undefined ? undefined : strings(raw.NotResource, `${where}.NotResource`),
    condition: parseCondition(raw.Condition, `${where}.Condition`),
  };
}

/** Reads a policy document (`{Version, Statement}`) as IAM stores it; throws PolicyError for what it cannot evaluate. */
export function parsePolicyDocument(name: string, value: unknown): PolicyDocument {
  if (typeof value !== "object" || value === null) throw new PolicyError(`${name} must be an object`);
  const raw = value as Record<string, unknown>;
  if (raw.Version !== "2012-10-17") throw new PolicyError(`${name}.Version must be 2012-10-17`);
  return {
    name,
    statements: list(raw.Statement).map((statement, index) => parseStatement(statement, `${name}.Statement[${index}]`)),
    document: value,
  };
}
