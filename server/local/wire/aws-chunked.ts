import { Transform, type TransformCallback } from "node:stream";

/**
 * Decodes the `aws-chunked` content encoding that the SDK uses for streamed S3 bodies with trailing checksums:
 * `<hex size>[;chunk-signature=...]\r\n<bytes>\r\n ... 0\r\n<trailers>\r\n\r\n`. Trailers are dropped.
 */
export class AwsChunkedDecoder extends Transform {
  private pending: Buffer = Buffer.alloc(0);
  private remaining = 0;
  private state: "size" | "data" | "crlf" | "trailer" = "size";

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    try {
      this.drain();
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback) {
    if (this.state === "data" || this.state === "crlf") callback(new Error("aws-chunked body ended inside a chunk"));
    else callback();
  }

  private drain() {
    while (this.pending.length > 0) {
      if (this.state === "trailer") {
        this.pending = Buffer.alloc(0);
        return;
      }
      if (this.state === "size") {
        const end = this.pending.indexOf("\r\n");
        if (end < 0) return;
        const line = this.pending.subarray(0, end).toString("latin1");
        this.pending = this.pending.subarray(end + 2);
        const size = Number.parseInt(line.split(";")[0] ?? "", 16);
        if (!Number.isFinite(size)) throw new Error(`bad aws-chunked size line ${JSON.stringify(line)}`);
        if (size === 0) this.state = "trailer";
        else {
          this.remaining = size;
          this.state = "data";
        }
        continue;
      }
      if (this.state === "data") {
        const take = Math.min(this.remaining, this.pending.length);
        this.push(this.pending.subarray(0, take));
        this.pending = this.pending.subarray(take);
        this.remaining -= take;
        if (this.remaining === 0) this.state = "crlf";
        continue;
      }
      if (this.pending.length < 2) return;
      this.pending = this.pending.subarray(2);
      this.state = "size";
    }
  }
}

export function isAwsChunked(headers: Record<string, string | string[] | undefined>): boolean {
  const encoding = String(headers["content-encoding"] ?? "");
  const sha = String(headers["x-amz-content-sha256"] ?? "");
  return encoding.split(",").some((part) => part.trim() === "aws-chunked") || sha.startsWith("STREAMING-");
}
