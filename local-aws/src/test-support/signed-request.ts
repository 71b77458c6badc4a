import { createHash } from "node:crypto";
import http from "node:http";
import { Sha256 } from "@smithy/core/checksum";
import { HttpRequest } from "@smithy/core/protocols";
import { SignatureV4 } from "@smithy/signature-v4";
import type { ControlPlane } from "../control-plane.ts";
import type { AccessKey } from "../local-credentials.ts";

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export interface RawRequest {
  method: string;
  /** As sent on the wire: percent-encoded, dot segments kept. */
  path: string;
  query?: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

/** Sends a request byte for byte as given (node:http keeps the path and the Host header as they are). */
export function sendRaw(plane: Pick<ControlPlane, "url">, request: RawRequest): Promise<RawAnswer> {
  const url = new URL(plane.url);
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: `${request.path}${request.query ? `?${request.query}` : ""}`,
        headers: request.headers,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end(request.body);
  });
}

export interface SigningOptions {
  key: AccessKey;
  service: string;
  region?: string;
  signingDate?: Date;
  /** The x-amz-content-sha256 to sign; default: the body's SHA-256 for S3, none for the JSON protocols; null: none. */
  payloadHash?: string | null;
  /** Headers sent but left out of SignedHeaders, as a careless or hostile signer would leave them. */
  unsignedHeaders?: string[];
}

/** Decoded as the SDK holds a query; a part that does not decode (a deliberately broken request) is kept as sent. */
function queryObject(query: string | undefined): Record<string, string> {
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  const object: Record<string, string> = {};
  for (const pair of (query ?? "").split("&").filter(Boolean)) {
    const [name = "", value = ""] = pair.split("=");
    object[decode(name)] = decode(value);
  }
  return object;
}

export function sha256Hex(data: Buffer | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Signs `request` as the SDK would (`@smithy/signature-v4`) and returns the signed headers and the signer. */
export async function signRequest(plane: Pick<ControlPlane, "url">, request: RawRequest, options: SigningOptions) {
  const url = new URL(plane.url);
  const signer = new SignatureV4({
    credentials: options.key,
    region: options.region ?? "us-east-1",
    service: options.service,
    sha256: Sha256,
    uriEscapePath: options.service !== "s3",
    applyChecksum: false,
  });
  const headers: Record<string, string> = { host: url.host, ...request.headers };
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  if (options.payloadHash) headers["x-amz-content-sha256"] = options.payloadHash;
  else if (options.service === "s3" && options.payloadHash !== null)
    headers["x-amz-content-sha256"] = sha256Hex(body ?? "");
  const signed = await signer.sign(
    new HttpRequest({
      method: request.method,
      protocol: "http:",
      hostname: url.hostname,
      port: Number(url.port),
      path: request.path,
      query: queryObject(request.query),
      headers,
      body,
    }),
    { signingDate: options.signingDate ?? new Date(), unsignableHeaders: new Set(options.unsignedHeaders ?? []) },
  );
  return { headers: signed.headers as Record<string, string>, signer };
}

export async function sendSigned(
  plane: Pick<ControlPlane, "url">,
  request: RawRequest,
  options: SigningOptions,
): Promise<RawAnswer> {
  const { headers } = await signRequest(plane, request, options);
  return sendRaw(plane, { ...request, headers });
}

/** An AWS JSON 1.1 call (`X-Amz-Target`), signed with `options`. */
export function sendJson(
  plane: Pick<ControlPlane, "url">,
  target: string,
  input: unknown,
  options: SigningOptions,
): Promise<RawAnswer> {
  return sendSigned(
    plane,
    {
      method: "POST",
      path: "/",
      headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": target },
      body: JSON.stringify(input),
    },
    options,
  );
}

/** The `<Code>` of an S3 XML error document. */
export function s3ErrorCode(answer: RawAnswer): string | undefined {
  return /<Code>([^<]+)<\/Code>/.exec(answer.text)?.[1];
}

/** The error name of an AWS JSON answer (`x-amzn-errortype`, as the SDK reads it). */
export function jsonErrorCode(answer: RawAnswer): string | undefined {
  return String(answer.headers["x-amzn-errortype"] ?? "").split(":")[0] || undefined;
}
