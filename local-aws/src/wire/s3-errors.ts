import type { ServerResponse } from "node:http";
import { AwsError } from "./aws-error.ts";
import { escapeXml } from "./xml.ts";

/** An S3 REST-XML error document (no body for HEAD, as S3 answers it); unknown failures become InternalError. */
export function sendS3Error(response: ServerResponse, method: string, error: unknown) {
  const awsError =
    error instanceof AwsError ? error : new AwsError("InternalError", `The local S3 failed: ${String(error)}`, 500);
  if (!(error instanceof AwsError))
    console.error(JSON.stringify({ level: "error", msg: "local s3", error: String(error) }));
  if (response.headersSent) {
    response.destroy(awsError);
    return;
  }
  const requestId = crypto.randomUUID();
  if (method === "HEAD") {
    response.writeHead(awsError.status, { "x-amz-request-id": requestId });
    response.end();
    return;
  }
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error>${Object.entries({
    Code: awsError.code,
    Message: awsError.message,
    ...awsError.fields,
    RequestId: requestId,
  })
    .map(([name, value]) => `<${name}>${escapeXml(String(value))}</${name}>`)
    .join("")}</Error>`;
  response.writeHead(awsError.status, {
    "content-type": "application/xml",
    "content-length": Buffer.byteLength(xml),
    "x-amz-request-id": requestId,
  });
  response.end(xml);
}
