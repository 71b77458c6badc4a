import { createHash } from "node:crypto";
import { pipeline, type Readable, Transform } from "node:stream";
import { AwsChunkedDecoder } from "./aws-chunked.ts";
import { AwsError } from "./aws-error.ts";
import type { AwsRequest } from "./request.ts";

const HEX_SHA256 = /^[0-9a-f]{64}$/;
const STREAMING_SIGNED = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD";
const STREAMING_UNSIGNED_TRAILER = "STREAMING-UNSIGNED-PAYLOAD-TRAILER";

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

/** Fails the stream at its end unless the bytes hash to the SHA-256 the request was signed with. */
class PayloadHashCheck extends Transform {
  private readonly hash = createHash("sha256");

  constructor(private readonly claimed: string) {
    super();
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
    const computed = this.hash.digest("hex");
    if (computed === this.claimed) callback();
    else
      callback(
        new AwsError(
          "XAmzContentSHA256Mismatch",
          "The provided 'x-amz-content-sha256' header does not match what was computed.",
          400,
          {
            ClientComputedContentSHA256: this.claimed,
            S3ComputedContentSHA256: computed,
          },
        ),
      );
  }
}

/** The request body as S3 stores it: decoded from aws-chunked, and verified against what the request signed. */
export function s3RequestBody(request: AwsRequest): Readable {
  const claimed = requirePayloadHash(request);
  if (claimed === "UNSIGNED-PAYLOAD") return request.raw;
  const check = HEX_SHA256.test(claimed)
    ? new PayloadHashCheck(claimed)
    : new AwsChunkedDecoder(
        claimed === STREAMING_SIGNED
          ? {
              seedSignature: request.auth.signature,
              amzDate: request.auth.amzDate,
              scope: request.auth.scope,
              sign: request.auth.sign,
            }
          : undefined,
      );
  return pipeline(request.raw, check, () => undefined);
}
