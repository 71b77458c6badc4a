import { BlockList, isIP } from "node:net";
import { type BaseOperator, type ConditionBlock, parseOperator } from "./policy.ts";
import { arnMatches, globMatches } from "./wildcard.ts";

/**
 * The request context: condition key -> value(s). Keys are matched case-insensitively, as IAM does; a key that is
 * absent (or an empty list) is "not present" for IfExists, Null and the set operators.
 */
export type RequestContext = Readonly<Record<string, string | readonly string[] | undefined>>;

type Compare = (requestValue: string, policyValue: string) => boolean;

function number(text: string): number | undefined {
  if (text.trim() === "") return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** ISO 8601 dates or epoch seconds, both of which IAM accepts for the Date operators. */
function date(text: string): number | undefined {
  const epoch = number(text);
  if (epoch !== undefined) return epoch * 1000;
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? undefined : parsed;
}

function numeric(test: (a: number, b: number) => boolean): Compare {
  return (a, b) => {
    const left = number(a);
    const right = number(b);
    return left !== undefined && right !== undefined && test(left, right);
  };
}

function dated(test: (a: number, b: number) => boolean): Compare {
  return (a, b) => {
    const left = date(a);
    const right = date(b);
    return left !== undefined && right !== undefined && test(left, right);
  };
}

function inCidr(address: string, cidr: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const [network = "", bits] = cidr.split("/");
  const networkFamily = isIP(network);
  if (networkFamily !== family) return false;
  const prefix = bits === undefined ? (family === 4 ? 32 : 128) : Number(bits);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128)) return false;
  const block = new BlockList();
  block.addSubnet(network, prefix, family === 4 ? "ipv4" : "ipv6");
  return block.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** The positive form of every operator; the negated ones are its complement over all policy values. */
const positive: Record<BaseOperator, Compare | undefined> = {
  StringEquals: (a, b) => a === b,
  StringNotEquals: undefined,
  StringEqualsIgnoreCase: (a, b) => a.toLowerCase() === b.toLowerCase(),
  StringNotEqualsIgnoreCase: undefined,
  StringLike: (a, b) => globMatches(b, a),
  StringNotLike: undefined,
  NumericEquals: numeric((a, b) => a === b),
  NumericNotEquals: undefined,
  NumericLessThan: numeric((a, b) => a < b),
  NumericLessThanEquals: numeric((a, b) => a <= b),
  NumericGreaterThan: numeric((a, b) => a > b),
  NumericGreaterThanEquals: numeric((a, b) => a >= b),
  DateEquals: dated((a, b) => a === b),
  DateNotEquals: undefined,
  DateLessThan: dated((a, b) => a < b),
  DateLessThanEquals: dated((a, b) => a <= b),
  DateGreaterThan: dated((a, b) => a > b),
  DateGreaterThanEquals: dated((a, b) => a >= b),
  Bool: (a, b) => a.toLowerCase() === b.toLowerCase(),
  BinaryEquals: (a, b) => a === b,
  IpAddress: (a, b) => inCidr(a, b),
  NotIpAddress: undefined,
  ArnEquals: (a, b) => arnMatches(b, a),
  ArnLike: (a, b) => arnMatches(b, a),
  ArnNotEquals: undefined,
  ArnNotLike: undefined,
  Null: undefined,
};

const negationOf: Partial<Record<BaseOperator, BaseOperator>> = {
  StringNotEquals: "StringEquals",
  StringNotEqualsIgnoreCase: "StringEqualsIgnoreCase",
  StringNotLike: "StringLike",
  NumericNotEquals: "NumericEquals",
  DateNotEquals: "DateEquals",
  NotIpAddress: "IpAddress",
  ArnNotEquals: "ArnEquals",
  ArnNotLike: "ArnLike",
};

/** One request value against a key's policy values: OR for positive operators, NOR for negated ones. */
function valueMatches(base: BaseOperator, requestValue: string, policyValues: readonly string[]): boolean {
  const negated = negationOf[base];
  const compare = positive[negated ?? base];
  if (!compare) throw new Error(`no comparison for ${base}`);
  const any = policyValues.some((policyValue) => compare(requestValue, policyValue));
  return negated ? !any : any;
}

function lookup(context: RequestContext, key: string): readonly string[] | undefined {
  const wanted = key.toLowerCase();
  for (const [name, value] of Object.entries(context)) {
    if (name.toLowerCase() !== wanted || value === undefined) continue;
    const values = typeof value === "string" ? [value] : value;
    return values.length === 0 ? undefined : values;
  }
  return undefined;
}

function conditionMatches(operatorName: string, key: string, policyValues: string[], context: RequestContext) {
  const operator = parseOperator(operatorName);
  if (!operator) throw new Error(`unknown condition operator ${operatorName}`);
  const values = lookup(context, key);
  if (operator.base === "Null") {
    const wantAbsent = policyValues.some((value) => value.toLowerCase() === "true");
    const wantPresent = policyValues.some((value) => value.toLowerCase() === "false");
    return values === undefined ? wantAbsent : wantPresent;
  }
  if (operator.set === "ForAllValues") {
    return values === undefined || values.every((value) => valueMatches(operator.base, value, policyValues));
  }
  if (operator.set === "ForAnyValue") {
    if (values === undefined) return operator.ifExists;
    return values.some((value) => valueMatches(operator.base, value, policyValues));
  }
  if (values === undefined) return operator.ifExists || negationOf[operator.base] !== undefined;
  // A single-valued operator over a multivalued key: every request value must satisfy it.
  return values.every((value) => valueMatches(operator.base, value, policyValues));
}

/** A statement's Condition element: every operator and every key in it must match (AND); values are OR'd. */
export function conditionsMatch(block: ConditionBlock, context: RequestContext): boolean {
  return Object.entries(block).every(([operator, keys]) =>
    Object.entries(keys).every(([key, values]) => conditionMatches(operator, key, values, context)),
  );
}
