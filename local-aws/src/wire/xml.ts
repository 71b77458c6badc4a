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

/** Reads the `<Part><PartNumber>..</PartNumber><ETag>..</ETag></Part>` list of CompleteMultipartUpload. */
export function parseCompletedParts(xml: string): { partNumber: number; etag: string }[] {
  const parts: { partNumber: number; etag: string }[] = [];
  for (const match of xml.matchAll(/<Part>([\s\S]*?)<\/Part>/g)) {
    const body = match[1] ?? "";
    const partNumber = Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(body)?.[1]);
    const etag = (/<ETag>([\s\S]*?)<\/ETag>/.exec(body)?.[1] ?? "").replaceAll("&quot;", '"').replaceAll('"', "");
    parts.push({ partNumber, etag });
  }
  return parts;
}

export function malformedXml(): AwsError {
  return new AwsError(
    "MalformedXML",
    "The XML you provided was not well-formed or did not validate against our published schema.",
    400,
  );
}
