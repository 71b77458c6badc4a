import type { IncomingHttpHeaders } from "node:http";
import { memberName, type Shape, ShapeTypeError, type StructureShape, validateInput } from "./input-shapes.ts";

/** Where a REST protocol's input member travels (the service model's `location` and `locationName`). */
export interface MemberBinding {
  location: "uri" | "querystring" | "header" | "headers";
  /** The URI label, query parameter or header; for `headers`, the prefix of every header the map collects. */
  name: string;
  /** A timestamp's format where the model sets one (`timestampFormat`). */
  format?: string;
}

/** An operation's input members bound to the HTTP request, and the member its body is (generated/). */
export interface RestBindings {
  members: Record<string, MemberBinding>;
  payload?: string;
}

/** The parts of an HTTP request that input members are bound to; `labels` are the URI's, already decoded. */
export interface RestRequestParts {
  labels: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
}

/** A timestamp's format where the model sets none, as botocore's REST serializers write it. */
const DEFAULT_TIMESTAMP_FORMAT = { header: "rfc822", querystring: "iso8601", uri: "iso8601" } as const;

const RFC822 = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const ISO8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function timestamp(text: string, format: string): Date | null {
  if (format === "unixTimestamp") return /^\d+(\.\d+)?$/.test(text) ? new Date(Number(text) * 1000) : null;
  if (!(format === "rfc822" ? RFC822 : ISO8601).test(text)) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * A header or query value as its member's type: an integer when it is one (anything else stays text, which the
 * shape refuses), `true`/`false` as a boolean, a timestamp in the model's format (else the shape's type error), a
 * list as its comma-separated (header) or repeated (query) items.
 */
function typed(shape: Shape, texts: string[], binding: MemberBinding, member: string): unknown {
  const text = texts.join(",");
  switch (shape.type) {
    case "integer": {
      const number = Number(text);
      return /^-?\d+$/.test(text.trim()) && Number.isSafeInteger(number) ? number : text;
    }
    case "float":
      return text.trim() !== "" && Number.isFinite(Number(text)) ? Number(text) : text;
    case "boolean":
      return text === "true" ? true : text === "false" ? false : text;
    case "timestamp": {
      const location = binding.location as keyof typeof DEFAULT_TIMESTAMP_FORMAT;
      const date = timestamp(text.trim(), binding.format ?? DEFAULT_TIMESTAMP_FORMAT[location]);
      if (!date) throw new ShapeTypeError(memberName(member), "a timestamp", text);
      return date;
    }
    case "list": {
      const items = binding.location === "header" ? text.split(",").map((item) => item.trim()) : texts;
      return items.map((item) => typed(shape.member, [item], binding, member));
    }
    default:
      return text;
  }
}

function headerTexts(headers: IncomingHttpHeaders, name: string): string[] {
  const value = headers[name.toLowerCase()];
  const texts = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return texts.filter((text) => text !== "");
}

/**
 * An operation's input from the request's URI labels, query string and headers, as the service model binds its
 * members, with the payload the caller read from the body (as its payload member). A header sent empty is absent.
 */
export function bindRestInput(
  shape: StructureShape,
  bindings: RestBindings,
  request: RestRequestParts & { payload?: unknown },
): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  if (bindings.payload && request.payload !== undefined) input[bindings.payload] = request.payload;
  for (const [member, binding] of Object.entries(bindings.members)) {
    const memberShape = shape.members[member];
    if (!memberShape) throw new Error(`${member} is bound to the request but not in the input shape`);
    if (binding.location === "headers") {
      const prefix = binding.name.toLowerCase();
      const map: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (name.startsWith(prefix) && typeof value === "string") map[name.slice(prefix.length)] = value;
      }
      if (Object.keys(map).length > 0) input[member] = map;
      continue;
    }
    const texts =
      binding.location === "uri"
        ? [request.labels[binding.name]].filter((label) => label !== undefined)
        : binding.location === "querystring"
          ? request.query.getAll(binding.name)
          : headerTexts(request.headers, binding.name);
    if (texts.length > 0) input[member] = typed(memberShape, texts, binding, member);
  }
  return input;
}

/**
 * The operation's input bound from the request, with the payload the caller read, checked against its shape with
 * AWS's validation wording (`code`: the error code the service answers with).
 */
export function restInput(
  shape: StructureShape,
  bindings: RestBindings,
  request: RestRequestParts & { payload?: unknown },
  code?: string,
): Record<string, unknown> {
  const input = bindRestInput(shape, bindings, request);
  validateInput(shape, input, code);
  return input;
}
