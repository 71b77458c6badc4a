import { createHash, type Hash } from "node:crypto";
import { pipeline, type Readable, Transform } from "node:stream";
import { AwsChunkedDecoder } from "./aws-chunked.ts";
import { AwsError } from "./aws-error.ts";
import type { AwsRequest } from "./request.ts";
import { type ClaimedChecksum, checksumCheck } from "./s3-checksums.ts";

const HEX_SHA256 = /^[0-9a-f]{64}$/;
const STREAMING_SIGNED = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD";
const STREAMING_UNSIGNED_TRAILER = "STREAMING-UNSIGNED-PAYLOAD-TRAILER";
const STREAMING = [STREAMING_SIGNED, STREAMING_UNSIGNED_TRAILER];

/**
 * The `x-amz-content-sha256` of an S3 request, which S3 requires on every SigV4 request: the payload's SHA-256,
 * `UNSIGNED-PAYLOAD`, or one of the aws-chunked streaming forms the SDK and common tools send.
 */
export function requirePayloadHash(request: Pick<AwsRequest, "headers">): string {
  const value = request.headers["x-amz-content-sha256"];
  if (typeof value !== "string" || value === "") {
    throw new AwsError("InvalidRequest", "Missing required header for this request: x-amz-content-sha256", 400);
  }
  if (!HEX_SHA256.test(value) && !["UNSIGNED-PAYLOAD", STREAMING_SIGNED, STREAMING_UNSIGNED_TRAILER].includes(value)) {
    throw new AwsError(
      "InvalidArgument",
      `x-amz-content-sha256 must be the payload's SHA-256, UNSIGNED-PAYLOAD, ${STREAMING_SIGNED} or ${STREAMING_UNSIGNED_TRAILER}; the local S3 does not accept "${value}".`,
      400,
      { ArgumentName: "x-amz-content-sha256", ArgumentValue: value },
    );
  }
  const encoding = String(request.headers["content-encoding"] ?? "");
  if (encoding.split(",").some((part) => part.trim() === "aws-chunked") && !value.startsWith("STREAMING-")) {
    throw new AwsError(
      "InvalidArgument",
      "Content-Encoding aws-chunked needs a STREAMING-* x-amz-content-sha256.",
      400,
    );
  }
  return value;
}

/** Fails the stream at its end unless the bytes hash to what the request claims (a signed SHA-256, a Content-MD5). */
class DigestCheck extends Transform {
  private readonly hash: Hash;

  constructor(
    algorithm: "sha256" | "md5",
    private readonly claimed: string,
    private readonly encoding: "hex" | "base64",
    private readonly mismatch: (computed: string) => AwsError,
  ) {
    super();
    this.hash = createHash(algorithm);
  }

  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error | null, data?: Buffer) => void,
  ) {
    this.hash.update(chunk);
    callback(null, chunk);
  }

  override _flush(callback: (error?: Error | null) => void) {
    const computed = this.hash.digest(this.encoding);
    callback(computed === this.claimed ? null : this.mismatch(computed));
  }
}

const payloadHashCheck = (claimed: string) =>
  new DigestCheck(
    "sha256",
    claimed,
    "hex",
    (computed) =>
      new AwsError(
        "XAmzContentSHA256Mismatch",
        "The provided 'x-amz-content-sha256' header does not match what was computed.",
        400,
        { ClientComputedContentSHA256: claimed, S3ComputedContentSHA256: computed },
      ),
  );

const BASE64_MD5 = /^[A-Za-z0-9+/]{22}==$/;

/**
 * Content-MD5, "The Base64 encoded 128-bit MD5 digest of the message (without the headers) according to RFC 1864"
 * (PutObject, UploadPart): S3's InvalidDigest when it is not one, BadDigest when the body does not match it.
 */
function contentMd5Check(claimed: string): Transform {
  if (!BASE64_MD5.test(claimed)) {
    throw new AwsError("InvalidDigest", "The Content-MD5 you specified was invalid.", 400, { "Content-MD5": claimed });
  }
  return new DigestCheck(
    "md5",
    claimed,
    "base64",
    (computed) =>
      new AwsError("BadDigest", "The Content-MD5 you specified did not match what we received.", 400, {
        ExpectedDigest: claimed,
        CalculatedDigest: computed,
      }),
  );
}

/**
 * The request body as S3 stores it: decoded from aws-chunked, verified against what the request signed and, when
 * the request gives them, against its Content-MD5 and its checksum (a header's, or the aws-chunked trailer's).
 */
export function s3RequestBody(
  request: AwsRequest,
  integrity: { contentMd5?: string; checksum?: ClaimedChecksum | null } = {},
): Readable {
  const claimed = requirePayloadHash(request);
  const md5 = integrity.contentMd5 === undefined ? [] : [contentMd5Check(integrity.contentMd5)];
  const decoder = STREAMING.includes(claimed)
    ? new AwsChunkedDecoder(
        claimed === STREAMING_SIGNED
          ? {
              seedSignature: request.auth.signature,
              amzDate: request.auth.amzDate,
              scope: request.auth.scope,
              sign: request.auth.sign,
            }
          : undefined,
      )
    : null;
  const { checksum } = integrity;
  const checksums = checksum
    ? [checksumCheck(checksum, () => checksum.value ?? decoder?.trailers[checksum.header])]
    : [];
  const check = HEX_SHA256.test(claimed) ? payloadHashCheck(claimed) : decoder;
  let body: Readable = request.raw;
  for (const stage of [...(check ? [check] : []), ...md5, ...checksums]) body = pipeline(body, stage, () => undefined);
  return body;
}
