import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { Sha256 } from "@smithy/core/checksum";
import { HttpRequest } from "@smithy/core/protocols";
import { SignatureV4 } from "@smithy/signature-v4";
import type { AccessKey } from "../local-credentials.ts";

/** How a request failed authentication; each protocol words it as its AWS service does (`auth-errors.ts`). */
export type SignatureFailure =
  | "missing"
  | "presigned"
  | "malformed"
  | "unknown-key"
  | "session-token"
  | "unsigned-headers"
  | "wrong-service"
  | "wrong-region"
  | "skewed"
  | "mismatch";

export class SignatureError extends Error {
  constructor(
    readonly failure: SignatureFailure,
    message: string,
    readonly details: Record<string, string | number> = {},
  ) {
    super(message);
    this.name = "SignatureError";
  }
}

/** The parts of an `Authorization: AWS4-HMAC-SHA256 ...` header and its `X-Amz-Date`. */
export interface SigV4Authorization {
  accessKeyId: string;
  /** `YYYYMMDD/region/service/aws4_request` */
  scope: string;
  region: string;
  service: string;
  signedHeaders: string[];
  signature: string;
  /** `X-Amz-Date` as sent (`YYYYMMDDTHHMMSSZ`) and as a date. */
  amzDate: string;
  signedAt: Date;
}

/** SigV4 allows 15 minutes between the signing time and the service's clock, either way. */
export const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;
const EMPTY_SHA256 = createHash("sha256").digest("hex");
const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(",") : value;
}

/** Reads the Authorization header; refuses a request that has none, or one that is not well-formed SigV4. */
export function parseAuthorization(headers: IncomingHttpHeaders, query: URLSearchParams): SigV4Authorization {
  const value = header(headers, "authorization");
  if (value === undefined || value === "") {
    if (query.has("X-Amz-Signature") || query.has("X-Amz-Credential")) {
      throw new SignatureError(
        "presigned",
        "Query-string (presigned URL) authentication is not served by the local control plane; sign requests with an Authorization header.",
      );
    }
    throw new SignatureError("missing", "Missing Authentication Token");
  }
  const [algorithm, ...rest] = value.trim().split(/\s+/);
  if (algorithm !== "AWS4-HMAC-SHA256") {
    throw new SignatureError(
      "malformed",
      `Unsupported Authorization Type: the local control plane verifies AWS4-HMAC-SHA256 signatures only, not "${algorithm}".`,
    );
  }
  const fields = new Map<string, string>();
  for (const part of rest.join("").split(",")) {
    const cut = part.indexOf("=");
    if (cut > 0) fields.set(part.slice(0, cut), part.slice(cut + 1));
  }
  const credential = fields.get("Credential") ?? "";
  const signedHeaders = fields.get("SignedHeaders") ?? "";
  const signature = fields.get("Signature") ?? "";
  const [accessKeyId = "", date = "", region = "", service = "", terminal = ""] = credential.split("/");
  const missing = [
    ["Credential", credential],
    ["SignedHeaders", signedHeaders],
    ["Signature", signature],
  ].filter(([, field]) => !field);
  if (missing.length > 0) {
    throw new SignatureError(
      "malformed",
      `Authorization header requires ${missing.map(([name]) => `'${name}'`).join(", ")} parameter${missing.length > 1 ? "s" : ""}. Authorization=${value.split(" ")[0]}`,
    );
  }
  if (!accessKeyId || !/^\d{8}$/.test(date) || !region || !service || terminal !== "aws4_request") {
    throw new SignatureError(
      "malformed",
      `Credential should be scoped to a valid region, service and date: "${credential.split("/").slice(1).join("/")}" is not <YYYYMMDD>/<region>/<service>/aws4_request.`,
    );
  }
  if (!/^[0-9a-f]{64}$/.test(signature)) {
    throw new SignatureError("malformed", "The signature is not 64 lowercase hexadecimal characters.");
  }
  const names = signedHeaders.split(";");
  if (!names.includes("host")) {
    throw new SignatureError("malformed", "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.");
  }
  requireSignedAmzHeaders(headers, names);
  const amzDate = header(headers, "x-amz-date") ?? "";
  const parts = AMZ_DATE.exec(amzDate);
  if (!parts) {
    throw new SignatureError(
      "malformed",
      "Authorization header requires existence of an 'X-Amz-Date' header in the ISO 8601 basic format (YYYYMMDDTHHMMSSZ).",
    );
  }
  if (amzDate.slice(0, 8) !== date) {
    throw new SignatureError(
      "malformed",
      `Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '${date}' != '${amzDate.slice(0, 8)}', from '${amzDate}'.`,
    );
  }
  const [, y, mo, d, h, mi, s] = parts.map(Number);
  return {
    accessKeyId,
    scope: `${date}/${region}/${service}/aws4_request`,
    region,
    service,
    signedHeaders: names,
    signature,
    amzDate,
    signedAt: new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s!)),
  };
}

/**
 * SigV4, "Create a canonical request": "If you include a date or x-amz-date header, you must also include that
 * header in the list of signed headers", and "any x-amz-* headers that you plan to include in your request must
 * also be added". That covers `X-Amz-Target` (the operation of the JSON protocols) and S3's
 * `x-amz-content-sha256` (what the payload is): a request whose signature leaves them out could be replayed as
 * another operation or with another body. The SDK signs every one of them.
 */
function requireSignedAmzHeaders(headers: IncomingHttpHeaders, signedHeaders: readonly string[]) {
  const unsigned = Object.keys(headers)
    .map((name) => name.toLowerCase())
    .filter((name) => name.startsWith("x-amz-") && !signedHeaders.includes(name))
    .sort();
  if (unsigned.length === 0) return;
  throw new SignatureError(
    "unsigned-headers",
    `There were headers present in the request which were not signed: ${unsigned.join(", ")}. Every x-amz-* header sent (X-Amz-Date, X-Amz-Target, x-amz-content-sha256, ...) must be a 'SignedHeader' in the AWS Authorization.`,
    { HeadersNotSigned: unsigned.join(", ") },
  );
}

const basic = (time: number) => new Date(time).toISOString().replace(/[-:]|\.\d{3}/g, "");

/** Refuses a request signed more than 15 minutes before or after `now`, as AWS does. */
export function requireFreshSignature(auth: SigV4Authorization, now: number) {
  const skew = auth.signedAt.getTime() - now;
  if (Math.abs(skew) <= MAX_CLOCK_SKEW_MS) return;
  const message =
    skew < 0
      ? `Signature expired: ${auth.amzDate} is now earlier than ${basic(now - MAX_CLOCK_SKEW_MS)} (${basic(now)} - 15 min.)`
      : `Signature not yet current: ${auth.amzDate} is still later than ${basic(now + MAX_CLOCK_SKEW_MS)} (${basic(now)} + 15 min.)`;
  throw new SignatureError("skewed", message, {
    RequestTime: auth.amzDate,
    ServerTime: new Date(now).toISOString(),
    MaxAllowedSkewMilliseconds: MAX_CLOCK_SKEW_MS,
  });
}

/** Query parameters decoded as the SDK held them when it signed (the signer encodes them again). */
function signedQuery(rawQuery: string, decode: (text: string) => string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const pair of rawQuery.split("&")) {
    if (pair === "") continue;
    const cut = pair.indexOf("=");
    const name = decode(cut < 0 ? pair : pair.slice(0, cut));
    const value = cut < 0 ? "" : decode(pair.slice(cut + 1));
    const previous = query[name];
    query[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return query;
}

export interface SignedMessage {
  method: string;
  /** The path exactly as sent, still percent-encoded. */
  path: string;
  rawQuery: string;
  headers: IncomingHttpHeaders;
  /** The body, when the protocol reads it before dispatch (JSON and runtime); S3 bodies are checked as they stream. */
  body?: Buffer;
}

/** Signs payload chunks and trailers of a streamed upload with the request's signing key. */
export type StringSigner = (stringToSign: string) => Promise<string>;

/**
 * Recomputes the request's signature with `@smithy/signature-v4`, exactly as the SDK signed it (the signed
 * headers only, the path as sent, S3 without double encoding), with the secret of the key it names, and refuses
 * a mismatch. Returns a signer for the chunk signatures of `STREAMING-AWS4-HMAC-SHA256-PAYLOAD` bodies.
 */
export async function verifySignature(
  message: SignedMessage,
  auth: SigV4Authorization,
  key: AccessKey,
  decode: (text: string) => string,
): Promise<StringSigner> {
  if (header(message.headers, "x-amz-security-token") !== undefined) {
    throw new SignatureError(
      "session-token",
      "The security token included in the request is invalid: local keys are long-term keys without a session token.",
    );
  }
  const headers: Record<string, string> = {};
  for (const name of auth.signedHeaders) {
    const value = header(message.headers, name);
    if (value === undefined) {
      throw new SignatureError(
        "mismatch",
        `The header ${name} is listed in SignedHeaders but absent from the request.`,
      );
    }
    headers[name] = value;
  }
  const claimedPayloadHash = header(message.headers, "x-amz-content-sha256");
  if (message.body && claimedPayloadHash !== undefined) {
    const actual = message.body.length === 0 ? EMPTY_SHA256 : createHash("sha256").update(message.body).digest("hex");
    if (claimedPayloadHash !== actual) {
      throw new SignatureError("mismatch", "The x-amz-content-sha256 header does not match the request body.");
    }
  }
  const signer = new SignatureV4({
    credentials: key,
    region: auth.region,
    service: auth.service,
    sha256: Sha256,
    uriEscapePath: auth.service !== "s3",
    applyChecksum: false,
  });
  const signed = await signer.sign(
    new HttpRequest({
      method: message.method,
      protocol: "http:",
      hostname: headers.host ?? "",
      path: message.path,
      query: signedQuery(message.rawQuery, decode),
      headers,
      body: message.body,
    }),
    { signingDate: auth.signedAt, signableHeaders: new Set(auth.signedHeaders) },
  );
  const expected = /Signature=([0-9a-f]{64})/.exec(String(signed.headers.authorization))?.[1] ?? "";
  if (
    expected.length !== auth.signature.length ||
    !timingSafeEqual(Buffer.from(expected), Buffer.from(auth.signature))
  ) {
    throw new SignatureError(
      "mismatch",
      "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.",
    );
  }
  return (stringToSign) =>
    signer.sign(stringToSign, {
      signingDate: auth.signedAt,
      signingRegion: auth.region,
      signingService: auth.service,
    });
}
