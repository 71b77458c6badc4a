import { createHash, type Hash } from "node:crypto";
import { Transform, type TransformCallback } from "node:stream";
import { AwsError } from "./aws-error.ts";
import type { StringSigner } from "./sigv4.ts";

const EMPTY_SHA256 = createHash("sha256").digest("hex");

/** What `STREAMING-AWS4-HMAC-SHA256-PAYLOAD` chunk signatures chain from: the request's own signature. */
export interface ChunkSignatureChain {
  seedSignature: string;
  amzDate: string;
  scope: string;
  sign: StringSigner;
}

function framingError(message: string): AwsError {
  return new AwsError("InvalidRequest", `Malformed aws-chunked body: ${message}`, 400);
}

/**
 * Decodes the `aws-chunked` content encoding the SDK uses for streamed S3 bodies:
 * `<hex size>[;chunk-signature=...]\r\n<bytes>\r\n ... 0[;chunk-signature=...]\r\n<trailers>\r\n\r\n`.
 * With a signature chain every chunk's signature is verified (each signs the previous one and the chunk's
 * SHA-256); trailers (`name:value` lines, e.g. the SDK's `x-amz-checksum-crc32`) are kept in `trailers` once the
 * body has ended. A body that ends before its final chunk is refused.
 */
export class AwsChunkedDecoder extends Transform {
  private pending: Buffer = Buffer.alloc(0);
  private remaining = 0;
  private state: "size" | "data" | "crlf" | "trailer" = "size";
  private chunkHash: Hash | undefined;
  private claimedSignature = "";
  private previousSignature: string;
  private readonly checks: Promise<void>[] = [];
  private trailerText = "";
  /** The trailing headers, by lowercase name, complete when the stream has ended. */
  readonly trailers: Record<string, string> = {};

  constructor(private readonly chain?: ChunkSignatureChain) {
    super();
    this.previousSignature = chain?.seedSignature ?? "";
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    try {
      this.drain();
    } catch (error) {
      callback(error as Error);
      return;
    }
    Promise.all(this.checks.splice(0)).then(() => callback(), callback);
  }

  override _flush(callback: TransformCallback) {
    if (this.state !== "trailer") {
      callback(new AwsError("IncompleteBody", "The request body ended before its final aws-chunked chunk.", 400));
      return;
    }
    for (const line of this.trailerText.split("\r\n")) {
      const colon = line.indexOf(":");
      if (colon > 0) this.trailers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    callback();
  }

  private drain() {
    while (this.pending.length > 0) {
      if (this.state === "trailer") {
        this.trailerText += this.pending.toString("latin1");
        this.pending = Buffer.alloc(0);
        if (this.trailerText.length > 4096) throw framingError("the trailer is longer than 4096 bytes");
        return;
      }
      if (this.state === "size") {
        const end = this.pending.indexOf("\r\n");
        if (end < 0) {
          if (this.pending.length > 4096) throw framingError("a chunk size line is longer than 4096 bytes");
          return;
        }
        const line = this.pending.subarray(0, end).toString("latin1");
        this.pending = this.pending.subarray(end + 2);
        const [sizeText = "", ...extensions] = line.split(";");
        if (!/^[0-9a-fA-F]{1,16}$/.test(sizeText)) throw framingError(`bad chunk size line ${JSON.stringify(line)}`);
        const size = Number.parseInt(sizeText, 16);
        this.beginChunk(extensions);
        if (size === 0) {
          this.endChunk();
          this.state = "trailer";
        } else {
          this.remaining = size;
          this.state = "data";
        }
        continue;
      }
      if (this.state === "data") {
        const take = Math.min(this.remaining, this.pending.length);
        const data = this.pending.subarray(0, take);
        this.chunkHash?.update(data);
        this.push(data);
        this.pending = this.pending.subarray(take);
        this.remaining -= take;
        if (this.remaining === 0) {
          this.endChunk();
          this.state = "crlf";
        }
        continue;
      }
      if (this.pending.length < 2) return;
      if (this.pending[0] !== 0x0d || this.pending[1] !== 0x0a) throw framingError("a chunk is not followed by CRLF");
      this.pending = this.pending.subarray(2);
      this.state = "size";
    }
  }

  private beginChunk(extensions: string[]) {
    if (!this.chain) return;
    const signature = extensions.find((e) => e.startsWith("chunk-signature="))?.slice("chunk-signature=".length);
    if (!signature || !/^[0-9a-f]{64}$/.test(signature)) throw framingError("a chunk has no chunk-signature");
    this.claimedSignature = signature;
    this.chunkHash = createHash("sha256");
  }

  private endChunk() {
    const chain = this.chain;
    if (!chain || !this.chunkHash) return;
    const claimed = this.claimedSignature;
    const stringToSign = [
      "AWS4-HMAC-SHA256-PAYLOAD",
      chain.amzDate,
      chain.scope,
      this.previousSignature,
      EMPTY_SHA256,
      this.chunkHash.digest("hex"),
    ].join("\n");
    this.previousSignature = claimed;
    this.chunkHash = undefined;
    this.checks.push(
      chain.sign(stringToSign).then((expected) => {
        if (expected !== claimed) {
          throw new AwsError(
            "SignatureDoesNotMatch",
            "The request signature we calculated does not match the signature you provided (an aws-chunked chunk signature).",
            403,
          );
        }
      }),
    );
  }
}
