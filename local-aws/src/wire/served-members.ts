import { AwsError } from "./aws-error.ts";
import type { JsonOperation } from "./json-rpc.ts";

/**
 * What local mode does with each member of an operation's input, beyond AWS's own shape: a member it does not serve
 * is refused, never accepted and ignored. `"served"` covers the whole value; a structure lists its served members
 * (a list's items are read the same way); a check refuses the values local mode does not serve.
 */
export type Served = "served" | { [member: string]: Served } | ((value: unknown, path: string) => string | null);

/**
 * The refusal of a member, or a value of one, that the local control plane does not serve, with the error code the
 * service answers a bad parameter with (SageMaker and Application Auto Scaling: ValidationException).
 */
export function notServedLocally(what: string, code = "ValidationException"): AwsError {
  return new AwsError(code, `${what} is not served by the local control plane.`);
}

/** Served only with one of these values (the one local mode behaves as); a check names what it does not serve. */
export const onlyValues =
  (...values: readonly unknown[]): Served =>
  (value, path) =>
    values.includes(value) ? null : `${path} ${JSON.stringify(value)}`;

/** The first member (or value) of `value` that `served` does not cover, as its path; null when all are served. */
export function unservedMember(served: Served, value: unknown, path = ""): string | null {
  if (served === "served" || value === undefined || value === null) return null;
  if (typeof served === "function") return served(value, path);
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = unservedMember(served, item, `${path}[${index}]`);
      if (found) return found;
    }
    return null;
  }
  if (typeof value !== "object") return null;
  for (const [member, item] of Object.entries(value)) {
    if (item === undefined || item === null) continue;
    const memberPath = path ? `${path}.${member}` : member;
    const rule = served[member];
    const found = rule === undefined ? memberPath : unservedMember(rule, item, memberPath);
    if (found) return found;
  }
  return null;
}

/** Wraps a service's operations so that each refuses, after its shape has passed, a member local mode does not serve. */
export function servingOnly(
  service: string,
  served: Record<string, Served>,
  operations: Record<string, JsonOperation>,
  errorCode = "ValidationException",
): Record<string, JsonOperation> {
  return Object.fromEntries(
    Object.entries(operations).map(([name, operation]) => {
      const members = served[name];
      if (!members) throw new Error(`${service}.${name} does not say which members it serves`);
      const checked: JsonOperation = (input, request) => {
        const unserved = unservedMember(members, input);
        if (unserved) throw notServedLocally(unserved, errorCode);
        return operation(input, request);
      };
      return [name, checked];
    }),
  );
}
