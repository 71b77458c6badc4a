import { AwsError } from "./aws-error.ts";
import type { JsonOperation } from "./json-rpc.ts";

/**
 * The constraint traits of an AWS service model (required, length, pattern, enum, range), checked the way AWS's
 * front end checks them before an operation runs, with its wording: "2 validation errors detected: Value 'x' at
 * 'endpointName' failed to satisfy constraint: Member must satisfy regular expression pattern: ...; ...".
 * The shapes are generated from botocore's service models (generated/, `npm run gen:aws-shapes`).
 */
export type Shape =
  | { type: "string"; min?: number; max?: number; pattern?: string; enum?: readonly string[] }
  | { type: "integer" | "float"; min?: number; max?: number }
  | { type: "boolean" | "timestamp" }
  | { type: "blob"; min?: number; max?: number }
  | { type: "list"; member: Shape; min?: number; max?: number }
  | { type: "map"; key: Shape; value: Shape; min?: number; max?: number }
  | StructureShape;

export interface StructureShape {
  type: "structure";
  members: Record<string, Shape>;
  required?: readonly string[];
}

const compiled = new Map<string, RegExp>();

/**
 * Java regex constructs some service models use, as JavaScript writes them (for matching; messages keep the
 * model's): `\p{Print}` is ASCII printable, a range inside a character class (`[\p{Print}]`) and a class outside;
 * a quantified end anchor is the anchor.
 */
function javaToJavaScript(source: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i] as string;
    if (char === "\\") {
      const escaped = source.slice(i, i + 2);
      if (source.startsWith("\\p{Print}", i)) {
        out += inClass ? "\\x20-\\x7E" : "[\\x20-\\x7E]";
        i += "\\p{Print}".length - 1;
      } else {
        out += escaped === "\\A" || escaped === "\\z" ? "" : escaped;
        i += 1;
      }
      continue;
    }
    if (char === "[") inClass = true;
    if (char === "]") inClass = false;
    const anchorRepeat = !inClass && char === "$" ? /^\{\d+(?:,\d*)?\}/.exec(source.slice(i + 1)) : null;
    if (anchorRepeat) {
      // Java lets a quantifier follow the end anchor (`${1,128}`, the customer metadata patterns); it matches as `$`.
      out += char;
      i += anchorRepeat[0].length;
      continue;
    }
    out += char;
  }
  return out;
}

/** Service patterns are matched against the whole value (a leading `^` in the model is part of its wording). */
export function matchesPattern(pattern: string, value: string): boolean {
  let regex = compiled.get(pattern);
  if (!regex) {
    const source = javaToJavaScript(pattern.replace(/^\^/, "").replace(/\$$/, ""));
    regex = new RegExp(`^(?:${source})$`, "u");
    compiled.set(pattern, regex);
  }
  return regex.test(value);
}

/** `EndpointName` -> `endpointName`, as AWS names members in validation messages. */
export const memberName = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);

function shown(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return `[${value.map(shown).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${k}=${shown(v)}`)
      .join(", ")}}`;
  }
  return String(value);
}

/** One constraint an input breaks: the member's path as AWS names it, the value, and the constraint's wording. */
export interface Violation {
  path: string;
  value: unknown;
  constraint: string;
}

const violation = (value: unknown, path: string, constraint: string): Violation => ({ path, value, constraint });

const described = ({ value, path, constraint }: Violation) =>
  `Value ${value === null ? "null" : `'${shown(value)}'`} at '${path}' failed to satisfy constraint: ${constraint}`;

/** A value of the wrong type, which AWS refuses before it checks any constraint (JSON: SerializationException). */
export class ShapeTypeError extends AwsError {
  constructor(
    readonly path: string,
    readonly expected: string,
    readonly value: unknown,
  ) {
    super("SerializationException", `Unexpected value at '${path}': expected ${expected}`);
  }
}

const serialization = (path: string, expected: string, value: unknown) => new ShapeTypeError(path, expected, value);

function checkLength(
  length: number,
  value: unknown,
  path: string,
  shape: { min?: number; max?: number },
  out: Violation[],
) {
  if (shape.max !== undefined && length > shape.max) {
    out.push(violation(value, path, `Member must have length less than or equal to ${shape.max}`));
  }
  if (shape.min !== undefined && length < shape.min) {
    out.push(violation(value, path, `Member must have length greater than or equal to ${shape.min}`));
  }
}

function check(shape: Shape, value: unknown, path: string, out: Violation[]) {
  switch (shape.type) {
    case "string": {
      if (typeof value !== "string") throw serialization(path, "a string", value);
      if (shape.enum && !shape.enum.includes(value)) {
        out.push(violation(value, path, `Member must satisfy enum value set: [${shape.enum.join(", ")}]`));
        return;
      }
      checkLength([...value].length, value, path, shape, out);
      if (shape.pattern && !matchesPattern(shape.pattern, value)) {
        out.push(violation(value, path, `Member must satisfy regular expression pattern: ${shape.pattern}`));
      }
      return;
    }
    case "integer":
    case "float": {
      if (
        typeof value !== "number" ||
        !Number.isFinite(value) ||
        (shape.type === "integer" && !Number.isInteger(value))
      ) {
        throw serialization(path, shape.type === "integer" ? "an integer" : "a number", value);
      }
      if (shape.min !== undefined && value < shape.min) {
        out.push(violation(value, path, `Member must have value greater than or equal to ${shape.min}`));
      }
      if (shape.max !== undefined && value > shape.max) {
        out.push(violation(value, path, `Member must have value less than or equal to ${shape.max}`));
      }
      return;
    }
    case "boolean":
      if (typeof value !== "boolean") throw serialization(path, "a boolean", value);
      return;
    case "blob": {
      // JSON protocols carry a blob as base64 text; a REST payload arrives as bytes.
      const bytes =
        typeof value === "string" ? Buffer.from(value, "base64") : value instanceof Uint8Array ? value : null;
      if (bytes === null) throw serialization(path, "a blob", value);
      checkLength(bytes.length, "<binary>", path, shape, out);
      return;
    }
    case "timestamp":
      // JSON sends epoch seconds, the query protocol ISO 8601 text; a REST binding reads a header or query as a Date.
      if (typeof value !== "number" && typeof value !== "string" && !(value instanceof Date)) {
        throw serialization(path, "a timestamp", value);
      }
      return;
    case "list": {
      if (!Array.isArray(value)) throw serialization(path, "a list", value);
      checkLength(value.length, value, path, shape, out);
      for (const [index, item] of value.entries()) check(shape.member, item, `${path}.${index + 1}.member`, out);
      return;
    }
    case "map": {
      if (typeof value !== "object" || value === null || Array.isArray(value))
        throw serialization(path, "a map", value);
      const entries = Object.entries(value);
      checkLength(entries.length, value, path, shape, out);
      for (const [key, item] of entries) {
        const keyProblems: Violation[] = [];
        check(shape.key, key, path, keyProblems);
        if (keyProblems.length > 0) {
          const constraints = keyProblems.map((problem) => problem.constraint);
          out.push(violation(value, path, `Map keys must satisfy constraint: [${constraints.join(", ")}]`));
        }
        const valueProblems: Violation[] = [];
        check(shape.value, item, path, valueProblems);
        if (valueProblems.length > 0) {
          const constraints = valueProblems.map((problem) => problem.constraint);
          out.push(violation(value, path, `Map value must satisfy constraint: [${constraints.join(", ")}]`));
        }
      }
      return;
    }
    case "structure": {
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        throw serialization(path, "a structure", value);
      }
      checkStructure(shape, value as Record<string, unknown>, `${path}.`, out);
    }
  }
}

function checkStructure(shape: StructureShape, value: Record<string, unknown>, prefix: string, out: Violation[]) {
  for (const required of shape.required ?? []) {
    if (value[required] === undefined || value[required] === null) {
      out.push(violation(null, `${prefix}${memberName(required)}`, "Member must not be null"));
    }
  }
  for (const [name, member] of Object.entries(shape.members)) {
    const item = value[name];
    if (item === undefined || item === null) continue;
    check(member, item, `${prefix}${memberName(name)}`, out);
  }
}

/**
 * Throws AWS's validation error listing every constraint the input breaks (members not in the shape pass):
 * `ValidationException` for the JSON services, or the code a service answers with (SageMaker Runtime's REST
 * `ValidationError`, CloudWatch's query-compatible `ValidationError`).
 */
export function validateInput(
  shape: StructureShape,
  input: Record<string, unknown>,
  code = "ValidationException",
): void {
  const problems = inputViolations(shape, input);
  if (problems.length === 0) return;
  const count = problems.length === 1 ? "1 validation error detected" : `${problems.length} validation errors detected`;
  throw new AwsError(code, `${count}: ${problems.map(described).join("; ")}`);
}

/** Every constraint the input breaks, in the order AWS lists them; a value of the wrong type throws ShapeTypeError. */
export function inputViolations(shape: StructureShape, input: Record<string, unknown>): Violation[] {
  const problems: Violation[] = [];
  checkStructure(shape, input, "", problems);
  return problems;
}

/** Throws ShapeTypeError (SerializationException) at the first value of the wrong type; constraints are not checked. */
export function checkInputTypes(shape: StructureShape, input: Record<string, unknown>): void {
  inputViolations(shape, input);
}

/** Wraps a service's operations so that each checks its input against its shape first (a missing shape is a bug). */
export function withInputShapes(
  service: string,
  shapes: Record<string, StructureShape>,
  operations: Record<string, JsonOperation>,
  errorCode?: string,
): Record<string, JsonOperation> {
  return Object.fromEntries(
    Object.entries(operations).map(([name, operation]) => {
      const shape = shapes[name];
      if (!shape) throw new Error(`${service}.${name} has no input shape`);
      const checked: JsonOperation = Object.assign(
        (input: Record<string, unknown>, request: Parameters<JsonOperation>[1]) => {
          validateInput(shape, input, errorCode);
          return operation(input, request);
        },
        { checkInputTypes: (input: Record<string, unknown>) => checkInputTypes(shape, input) },
      );
      return [name, checked];
    }),
  );
}
