import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ContentEncodingError, decodeRequestBody } from "../src/contract/content-encoding.ts";

const fixtures = path.join(import.meta.dirname, "fixtures", "zstd");
const read = (name: string) => new Uint8Array(fs.readFileSync(path.join(fixtures, name)));
const LIMIT = 262_144;

function refusal(call: () => unknown): ContentEncodingError {
  try {
    call();
  } catch (error) {
    if (error instanceof ContentEncodingError) return error;
    throw error;
  }
  throw new Error("not refused");
}

describe("a request body with a Content-Encoding", () => {
  it("is decoded from zstd, as TypeSafe's SDK sends it", () => {
    const decoded = decodeRequestBody(read("systemone-body.txt.zst"), "zstd", LIMIT);
    expect(Buffer.from(decoded).toString("utf8")).toBe(
      fs.readFileSync(path.join(fixtures, "systemone-body.txt"), "utf8"),
    );
  });

  it("is left as it is without one, or with identity", () => {
    const body = new TextEncoder().encode("{}");
    expect(decodeRequestBody(body, undefined, LIMIT)).toBe(body);
    expect(decodeRequestBody(body, "identity", LIMIT)).toBe(body);
  });

  it("never decodes past the body limit: a 2 KB stream of 64 MiB is refused 413", () => {
    const error = refusal(() => decodeRequestBody(read("64-mib-of-zeros.zst"), "zstd", LIMIT));
    expect([error.status, error.message]).toEqual([
      413,
      `Content-Encoding zstd: the decoded body is larger than ${LIMIT} bytes`,
    ]);
  });

  it("refuses a frame that claims more content than the limit before allocating any", () => {
    // Magic, a single-segment frame with an 8-byte content size of 2^40, then one empty raw last block.
    const frame = Uint8Array.from([0x28, 0xb5, 0x2f, 0xfd, 0xe0, 0, 0, 0, 0, 0, 1, 0, 0, 0x01, 0, 0]);
    expect(refusal(() => decodeRequestBody(frame, "zstd", LIMIT)).status).toBe(413);
  });

  it("answers 400 for bytes that are not zstd, and 415 for an encoding it does not read", () => {
    expect(refusal(() => decodeRequestBody(new TextEncoder().encode("{}"), "zstd", LIMIT)).status).toBe(400);
    const truncated = read("systemone-body.txt.zst").slice(0, 40);
    expect(refusal(() => decodeRequestBody(truncated, "zstd", LIMIT)).status).toBe(400);
    const gzip = refusal(() => decodeRequestBody(new Uint8Array([1]), "gzip", LIMIT));
    expect([gzip.status, gzip.message]).toEqual([
      415,
      "Content-Encoding gzip is not supported: send zstd or no encoding",
    ]);
  });
});
