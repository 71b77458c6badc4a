import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import type { LocalPrincipal } from "../local-credentials.ts";
import { AwsError } from "./aws-error.ts";
import type { StringSigner } from "./sigv4.ts";

/** Who signed a request, as verified; the seam where IAM policies are applied per principal. */
export interface RequestAuth {
  principal: LocalPrincipal;
  accessKeyId: string;
  signature: string;
  amzDate: string;
  scope: string;
  /** Signs with the request's signing key (streamed chunk signatures). */
  sign: StringSigner;
}

/** What every handler needs from an incoming call, with the caller's region taken from its SigV4 scope. */
export interface AwsRequest {
  method: string;
  url: URL;
  /** The path exactly as sent, still percent-encoded (dot segments are not resolved). */
  path: string;
  headers: IncomingMessage["headers"];
  region: string;
  /** The signing service of the credential scope, e.g. `sagemaker`, `s3`, `logs`. */
  signingService: string;
  auth: RequestAuth;
  /** JSON and SageMaker Runtime bodies, read and checked against the signature before dispatch; S3 streams its own. */
  body?: Buffer;
  raw: IncomingMessage;
}

export const LOCAL_ACCOUNT_ID = "000000000000";
export const DEFAULT_REGION = "us-east-1";

/** A percent-encoded path segment or query part, decoded; `%ZZ` and broken UTF-8 are a 400, never a URIError. */
export function decodeUriComponent(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new AwsError("InvalidURI", "Couldn't parse the specified URI.", 400, { URI: text });
  }
}

/**
 * The whole body, at most `limitBytes`; beyond that it stops collecting and rejects with `tooLarge()` (what is
 * left of the body is discarded by Node once the error response ends).
 */
export function readBody(request: Readable, limitBytes: number, tooLarge: () => AwsError): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limitBytes) {
        chunks.push(chunk);
        return;
      }
      request.off("data", onData);
      request.off("end", onEnd);
      request.pause();
      reject(tooLarge());
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    request.on("data", onData);
    request.once("end", onEnd);
    request.once("error", reject);
  });
}
