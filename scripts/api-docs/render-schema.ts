import { z } from "zod";

/**
 * A compact, TypeScript-like rendering of a zod schema through zod's own JSON Schema export: one line per field,
 * `?` for optional (or defaulted) request fields, and the constraints a caller must meet as a comment.
 */
type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
};

export type Side = "input" | "output";

export function renderSchema(schema: z.ZodType, side: Side): string {
  const json = z.toJSONSchema(schema, { io: side, unrepresentable: "any" }) as JsonSchema;
  return typeOf(json, "");
}

function range(low: number | undefined, high: number | undefined, unit = ""): string | null {
  if (low !== undefined && high !== undefined) return low === high ? `${low}${unit}` : `${low}-${high}${unit}`;
  if (low !== undefined) return `>= ${low}${unit}`;
  if (high !== undefined) return `<= ${high}${unit}`;
  return null;
}

/** zod's integer bounds say only "a safe integer"; they are no constraint worth printing. */
const bound = (value: number | undefined) =>
  value !== undefined && Math.abs(value) >= Number.MAX_SAFE_INTEGER ? undefined : value;

function numberRange(schema: JsonSchema): string | null {
  const high = bound(schema.maximum);
  const exclusiveLow = bound(schema.exclusiveMinimum);
  if (exclusiveLow !== undefined) return high === undefined ? `> ${exclusiveLow}` : `> ${exclusiveLow}, <= ${high}`;
  return range(bound(schema.minimum), high);
}

/** What a value must also satisfy beyond its type, in a few words. */
function constraints(schema: JsonSchema): string[] {
  const notes: string[] = [];
  const chars = range(schema.minLength, schema.maxLength, " chars");
  if (chars) notes.push(chars);
  if (schema.format === "date-time") notes.push("ISO 8601 date-time");
  else if (schema.format) notes.push(schema.format);
  if (schema.pattern && !schema.format) notes.push(`/${schema.pattern}/`);
  const numbers = numberRange(schema);
  if (numbers) notes.push(numbers);
  const items = range(schema.minItems, schema.maxItems, " items");
  if (items) notes.push(items);
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  if (schema.description) notes.push(schema.description);
  return notes;
}

function literal(value: unknown): string {
  return JSON.stringify(value);
}

function typeOf(schema: JsonSchema, indent: string): string {
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants)
    return union(
      variants.map((variant) => typeOf(variant, indent)),
      indent,
    );
  if (schema.allOf) return schema.allOf.map((part) => typeOf(part, indent)).join(" & ");
  if (schema.const !== undefined) return literal(schema.const);
  if (schema.enum) return schema.enum.map(literal).join(" | ");
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : schema.type;
  if (type === "object") return objectType(schema, indent);
  if (type === "array") {
    const item = schema.items ? typeOf(schema.items, indent) : "unknown";
    return /[|&\n]/.test(item) && !item.startsWith("{") ? `(${item})[]` : `${item}[]`;
  }
  if (type === "integer") return "integer";
  return type ?? "unknown";
}

/** Continuation lines of a rendered type carry their own indentation. */
function union(members: string[], indent: string): string {
  return members.some((member) => member.includes("\n")) ? members.join(`\n${indent}| `) : members.join(" | ");
}

function objectType(schema: JsonSchema, indent: string): string {
  const properties = Object.entries(schema.properties ?? {});
  const extra = schema.additionalProperties;
  if (properties.length === 0) {
    if (extra && typeof extra === "object") return `{ [key: string]: ${typeOf(extra, indent)} }`;
    return "{}";
  }
  const inner = `${indent}  `;
  const required = new Set(schema.required ?? []);
  const lines = properties.map(([name, property]) => {
    const optional = required.has(name) ? "" : "?";
    const notes = constraints(property);
    const comment = notes.length > 0 ? `  // ${notes.join("; ")}` : "";
    const [first, ...rest] = typeOf(property, inner).split("\n");
    return [`${inner}${name}${optional}: ${first}${comment}`, ...rest].join("\n");
  });
  return ["{", ...lines, `${indent}}`].join("\n");
}
