import { Decompress } from "fzstd";

/**
 * Request bodies sent with `Content-Encoding: zstd`, as TypeSafe's SDK sends a body of 1 KiB or more wherever zstd is
 * available ("Request body compression: "zstd" ... Defaults to zstd when available"): decoded before the body is read
 * as JSON, never into more than the body limit. A frame's header names the memory its decoder needs (its window, or
 * its content size for a single-segment frame): a frame that asks for more than the limit is refused before any is
 * allocated (RFC 8878, sections 3.1.1.1.1-3.1.1.1.4), and decoding stops as soon as the output passes the limit.
 */
export class ContentEncodingError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 413 | 415,
  ) {
    super(message);
  }
}

const ZSTD_MAGIC = 0xfd2fb528;
const SKIPPABLE_MAGIC_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;
/** A decoder's window for a frame that does not give its size: zstd's own default cap for decoders (8 MiB). */
const MAX_WINDOW_BYTES = 8 * 2 ** 20;

function invalid(): ContentEncodingError {
  return new ContentEncodingError("Content-Encoding zstd: the body is not valid zstd data", 400);
}

function tooLarge(maxBytes: number): ContentEncodingError {
  return new ContentEncodingError(`Content-Encoding zstd: the decoded body is larger than ${maxBytes} bytes`, 413);
}

function readLE(bytes: Uint8Array, at: number, size: number): number {
  if (at + size > bytes.length) throw invalid();
  let value = 0;
  for (let i = size - 1; i >= 0; i--) value = value * 256 + (bytes[at + i] as number);
  return value;
}

/** Walks every frame's header and blocks, refusing a frame whose decoder would need more than the limit allows. */
function checkFrames(bytes: Uint8Array, maxBytes: number): void {
  let at = 0;
  if (bytes.length === 0) throw invalid();
  while (at < bytes.length) {
    const magic = readLE(bytes, at, 4);
    if ((magic & SKIPPABLE_MAGIC_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      at += 8 + readLE(bytes, at + 4, 4);
      continue;
    }
    if (magic !== ZSTD_MAGIC) throw invalid();
    const descriptor = readLE(bytes, at + 4, 1);
    at += 5;
    const singleSegment = (descriptor & 0x20) !== 0;
    let windowBytes = 0;
    if (!singleSegment) {
      const windowDescriptor = readLE(bytes, at, 1);
      at += 1;
      const base = 2 ** (10 + (windowDescriptor >> 3));
      windowBytes = base + (base / 8) * (windowDescriptor & 7);
    }
    at += [0, 1, 2, 4][descriptor & 3] as number;
    const contentSizeField = [singleSegment ? 1 : 0, 2, 4, 8][descriptor >> 6] as number;
    const contentSize =
      contentSizeField === 0 ? undefined : readLE(bytes, at, contentSizeField) + (contentSizeField === 2 ? 256 : 0);
    at += contentSizeField;
    if ((contentSize ?? 0) > maxBytes) throw tooLarge(maxBytes);
    if (singleSegment ? contentSize === undefined : windowBytes > Math.max(MAX_WINDOW_BYTES, maxBytes)) {
      throw tooLarge(maxBytes);
    }
    for (;;) {
      const header = readLE(bytes, at, 3);
      at += 3;
      const type = (header >> 1) & 3;
      if (type === 3) throw invalid();
      at += type === 1 ? 1 : header >> 3;
      if (at > bytes.length) throw invalid();
      if (header & 1) break;
    }
    if (descriptor & 0x04) at += 4;
  }
  if (at !== bytes.length) throw invalid();
}

/** The body as sent, decoded by its `Content-Encoding` (none, `identity` or `zstd`); never more than `maxBytes`. */
export function decodeRequestBody(bytes: Uint8Array, encoding: string | undefined, maxBytes: number): Uint8Array {
  const name = (encoding ?? "").trim().toLowerCase();
  if (name === "" || name === "identity") return bytes;
  if (name !== "zstd") {
    throw new ContentEncodingError(`Content-Encoding ${encoding} is not supported: send zstd or no encoding`, 415);
  }
  checkFrames(bytes, maxBytes);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const decoder = new Decompress((chunk) => {
    total += chunk.length;
    if (total > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk.slice());
  });
  try {
    decoder.push(bytes, true);
  } catch (error) {
    throw error instanceof ContentEncodingError ? error : invalid();
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
