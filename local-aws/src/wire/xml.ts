import { AwsError } from "./aws-error.ts";

export function escapeXml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;");
}

/** Renders `{Tag: value | value[] | nested}` as XML elements, arrays as repeated elements. */
export function xmlElements(fields: Record<string, unknown>): string {
  let out = "";
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (typeof item === "object" && item !== null) {
        out += `<${name}>${xmlElements(item as Record<string, unknown>)}</${name}>`;
      } else {
        out += `<${name}>${escapeXml(String(item))}</${name}>`;
      }
    }
  }
  return out;
}

export function xmlDocument(root: string, fields: Record<string, unknown>): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${xmlElements(fields)}</${root}>`;
}

/**
 * CompleteMultipartUpload's body as its model shape (CompletedMultipartUpload): each `<Part>`'s elements by name,
 * a PartNumber that is digits as a number (anything else stays text, for the shape to refuse), an ETag unquoted.
 */
export function parseCompletedMultipartUpload(xml: string): { Parts: Record<string, unknown>[] } {
  const parts: Record<string, unknown>[] = [];
  for (const match of xml.matchAll(/<Part>([\s\S]*?)<\/Part>/g)) {
    const part: Record<string, unknown> = {};
    for (const [, name = "", text = ""] of (match[1] ?? "").matchAll(/<(\w+)>([\s\S]*?)<\/\1>/g)) {
      part[name] = name === "ETag" ? text.replaceAll("&quot;", '"').replaceAll('"', "") : text;
    }
    if (typeof part.PartNumber === "string" && /^\d+$/.test(part.PartNumber)) part.PartNumber = Number(part.PartNumber);
    parts.push(part);
  }
  return { Parts: parts };
}

export function malformedXml(): AwsError {
  return new AwsError(
    "MalformedXML",
    "The XML you provided was not well-formed or did not validate against our published schema.",
    400,
  );
}
