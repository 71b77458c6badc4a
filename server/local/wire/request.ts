import type { IncomingMessage } from "node:http";

/** What every handler needs from an incoming call, with the caller's region taken from its SigV4 scope. */
export interface AwsRequest {
  method: string;
  url: URL;
  headers: IncomingMessage["headers"];
  region: string;
  /** The signing service of the credential scope, e.g. `sagemaker`, `s3`, `logs`. */
  signingService: string;
  raw: IncomingMessage;
}

export const LOCAL_ACCOUNT_ID = "000000000000";
export const DEFAULT_REGION = "us-east-1";

const SCOPE = /Credential=[^/]+\/\d{8}\/([a-z0-9-]+)\/([a-z0-9-]+)\/aws4_request/;

/**
 * Signatures are not verified (the credentials are dummies), but a request must carry a SigV4-shaped
 * Authorization header, so a client that forgot to sign (or signed nothing) fails here as it would on AWS.
 */
export function parseAuthorization(header: string | undefined): { region: string; service: string } | undefined {
  if (!header?.startsWith("AWS4-HMAC-SHA256 ")) return undefined;
  const match = SCOPE.exec(header);
  if (!match?.[1] || !match[2] || !header.includes("Signature=")) return undefined;
  return { region: match[1], service: match[2] };
}

export async function readBody(request: IncomingMessage, limitBytes = 16 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limitBytes) throw new Error(`request body larger than ${limitBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
