import { randomFillSync } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";

/** A small GGUF v3 writer: metadata key/values and F32, F16 or Q8_0 tensors, streamed to disk tensor by tensor. */

export type MetadataValue =
  | { type: "u32"; value: number }
  | { type: "i32"; value: number }
  | { type: "f32"; value: number }
  | { type: "bool"; value: boolean }
  | { type: "string"; value: string }
  | { type: "strings"; value: readonly string[] }
  | { type: "f32s"; value: readonly number[] }
  | { type: "i32s"; value: readonly number[] };

export type TensorType = "F32" | "F16" | "Q8_0";

/** Tensor contents: explicit values, all zeros, or random values of a given spread (fast, for benchmarks). */
export type TensorSource = { values: Float32Array } | { zeros: true } | { random: { scale: number } };

export type TensorSpec = {
  name: string;
  /** ggml order: dims[0] is the row length (contiguous), as in the GGUF file. */
  dims: readonly number[];
  type: TensorType;
  source: TensorSource;
};

const ALIGNMENT = 32;
const GGUF_TYPE = { u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9 } as const;
const GGML_TYPE: Record<TensorType, number> = { F32: 0, F16: 1, Q8_0: 8 };
const Q8_0_BLOCK = 32;
const Q8_0_BLOCK_BYTES = 34;

/** Growable little-endian byte buffer for the header. */
class ByteSink {
  private buffer = Buffer.alloc(1 << 16);
  length = 0;

  private reserve(bytes: number) {
    if (this.length + bytes <= this.buffer.length) return;
    const next = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(next, 0, 0, this.length);
    this.buffer = next;
  }
  u32(value: number) {
    this.reserve(4);
    this.length = this.buffer.writeUInt32LE(value, this.length);
  }
  i32(value: number) {
    this.reserve(4);
    this.length = this.buffer.writeInt32LE(value, this.length);
  }
  u64(value: number) {
    this.reserve(8);
    this.length = this.buffer.writeBigUInt64LE(BigInt(value), this.length);
  }
  f32(value: number) {
    this.reserve(4);
    this.length = this.buffer.writeFloatLE(value, this.length);
  }
  u8(value: number) {
    this.reserve(1);
    this.length = this.buffer.writeUInt8(value, this.length);
  }
  string(value: string) {
    const bytes = Buffer.from(value, "utf8");
    this.u64(bytes.length);
    this.reserve(bytes.length);
    bytes.copy(this.buffer, this.length);
    this.length += bytes.length;
  }
  pad(alignment: number) {
    while (this.length % alignment !== 0) this.u8(0);
  }
  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

function writeValue(sink: ByteSink, value: MetadataValue) {
  switch (value.type) {
    case "u32":
      sink.u32(GGUF_TYPE.u32);
      return sink.u32(value.value);
    case "i32":
      sink.u32(GGUF_TYPE.i32);
      return sink.i32(value.value);
    case "f32":
      sink.u32(GGUF_TYPE.f32);
      return sink.f32(value.value);
    case "bool":
      sink.u32(GGUF_TYPE.bool);
      return sink.u8(value.value ? 1 : 0);
    case "string":
      sink.u32(GGUF_TYPE.string);
      return sink.string(value.value);
    case "strings":
      sink.u32(GGUF_TYPE.array);
      sink.u32(GGUF_TYPE.string);
      sink.u64(value.value.length);
      for (const item of value.value) sink.string(item);
      return;
    case "f32s":
      sink.u32(GGUF_TYPE.array);
      sink.u32(GGUF_TYPE.f32);
      sink.u64(value.value.length);
      for (const item of value.value) sink.f32(item);
      return;
    case "i32s":
      sink.u32(GGUF_TYPE.array);
      sink.u32(GGUF_TYPE.i32);
      sink.u64(value.value.length);
      for (const item of value.value) sink.i32(item);
      return;
  }
}

export function elementCount(dims: readonly number[]): number {
  return dims.reduce((product, dim) => product * dim, 1);
}

export function tensorBytes(type: TensorType, dims: readonly number[]): number {
  const count = elementCount(dims);
  if (type === "F32") return count * 4;
  if (type === "F16") return count * 2;
  if (dims[0]! % Q8_0_BLOCK !== 0) throw new Error(`Q8_0 rows must be a multiple of 32, got ${dims[0]}`);
  return (count / Q8_0_BLOCK) * Q8_0_BLOCK_BYTES;
}

const f32Scratch = new Float32Array(1);
const u32Scratch = new Uint32Array(f32Scratch.buffer);

/** IEEE half-precision bits of a float (round to nearest even), as ggml stores F16. */
export function toHalf(value: number): number {
  f32Scratch[0] = value;
  const bits = u32Scratch[0]!;
  const sign = (bits >>> 16) & 0x8000;
  const exponent = ((bits >>> 23) & 0xff) - 127 + 15;
  let mantissa = bits & 0x7fffff;
  if (exponent >= 0x1f) return sign | 0x7c00;
  if (exponent <= 0) {
    if (exponent < -10) return sign;
    mantissa = (mantissa | 0x800000) >> (1 - exponent);
    if (mantissa & 0x1000) mantissa += 0x2000;
    return sign | (mantissa >> 13);
  }
  let half = sign | (exponent << 10) | (mantissa >> 13);
  const rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && half & 1)) half++;
  return half;
}

/** Float value of half-precision bits (for tests that need the exact value a tensor holds). */
export function fromHalf(half: number): number {
  const sign = half & 0x8000 ? -1 : 1;
  const exponent = (half >> 10) & 0x1f;
  const mantissa = half & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (mantissa / 1024);
  if (exponent === 0x1f) return mantissa ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * 2 ** (exponent - 15) * (1 + mantissa / 1024);
}

function encodeValues(type: TensorType, values: Float32Array): Buffer {
  if (type === "F32") return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  if (type === "F16") {
    const out = Buffer.alloc(values.length * 2);
    for (let i = 0; i < values.length; i++) out.writeUInt16LE(toHalf(values[i]!), i * 2);
    return out;
  }
  const blocks = values.length / Q8_0_BLOCK;
  const out = Buffer.alloc(blocks * Q8_0_BLOCK_BYTES);
  for (let block = 0; block < blocks; block++) {
    let max = 0;
    for (let i = 0; i < Q8_0_BLOCK; i++) max = Math.max(max, Math.abs(values[block * Q8_0_BLOCK + i]!));
    const scale = max / 127;
    const at = block * Q8_0_BLOCK_BYTES;
    out.writeUInt16LE(toHalf(scale), at);
    for (let i = 0; i < Q8_0_BLOCK; i++) {
      const quant = scale === 0 ? 0 : Math.round(values[block * Q8_0_BLOCK + i]! / scale);
      out.writeInt8(Math.max(-127, Math.min(127, quant)), at + 2 + i);
    }
  }
  return out;
}

/** Random bytes of the right form, generated in chunks: uniform int8 quants with one scale, or uniform floats. */
function* randomChunks(type: TensorType, dims: readonly number[], scale: number): Generator<Buffer> {
  const total = tensorBytes(type, dims);
  const chunkBytes = type === "Q8_0" ? Q8_0_BLOCK_BYTES * 65536 : 4 * 1024 * 1024;
  const quantScale = toHalf(scale / 127);
  for (let written = 0; written < total; written += chunkBytes) {
    const size = Math.min(chunkBytes, total - written);
    const chunk = randomFillSync(Buffer.alloc(size));
    if (type === "Q8_0") {
      for (let at = 0; at < size; at += Q8_0_BLOCK_BYTES) chunk.writeUInt16LE(quantScale, at);
    } else if (type === "F16") {
      const halves = new Uint16Array(chunk.buffer, chunk.byteOffset, size / 2);
      // Keep sign and low mantissa bits random, force a small exponent: values stay within +-scale, never NaN.
      const exponentBits = toHalf(scale) & 0x7c00;
      for (let i = 0; i < halves.length; i++) halves[i] = (halves[i]! & 0x83ff) | exponentBits;
    } else {
      const floats = new Float32Array(chunk.buffer, chunk.byteOffset, size / 4);
      const ints = new Uint32Array(chunk.buffer, chunk.byteOffset, size / 4);
      for (let i = 0; i < floats.length; i++) floats[i] = ((ints[i]! / 0xffffffff) * 2 - 1) * scale;
    }
    yield chunk;
  }
}

/** Writes a GGUF v3 file. Tensor data is produced and written one tensor at a time, so large models stream. */
export function writeGguf(file: string, metadata: Record<string, MetadataValue>, tensors: readonly TensorSpec[]): void {
  const header = new ByteSink();
  header.u32(0x46554747); // "GGUF"
  header.u32(3);
  header.u64(tensors.length);
  const entries = Object.entries({ "general.alignment": { type: "u32", value: ALIGNMENT }, ...metadata } as Record<
    string,
    MetadataValue
  >);
  header.u64(entries.length);
  for (const [key, value] of entries) {
    header.string(key);
    writeValue(header, value);
  }
  let offset = 0;
  for (const tensor of tensors) {
    header.string(tensor.name);
    header.u32(tensor.dims.length);
    for (const dim of tensor.dims) header.u64(dim);
    header.u32(GGML_TYPE[tensor.type]);
    header.u64(offset);
    offset += Math.ceil(tensorBytes(tensor.type, tensor.dims) / ALIGNMENT) * ALIGNMENT;
  }
  header.pad(ALIGNMENT);
  const fd = openSync(file, "w");
  try {
    writeSync(fd, header.bytes());
    for (const tensor of tensors) {
      const size = tensorBytes(tensor.type, tensor.dims);
      const source = tensor.source;
      if ("values" in source) {
        if (source.values.length !== elementCount(tensor.dims)) throw new Error(`${tensor.name}: wrong value count`);
        writeSync(fd, encodeValues(tensor.type, source.values));
      } else if ("zeros" in source) {
        const zeros = Buffer.alloc(Math.min(size, 4 * 1024 * 1024));
        for (let written = 0; written < size; written += zeros.length) {
          writeSync(fd, zeros, 0, Math.min(zeros.length, size - written));
        }
      } else {
        for (const chunk of randomChunks(tensor.type, tensor.dims, source.random.scale)) writeSync(fd, chunk);
      }
      const padding = Math.ceil(size / ALIGNMENT) * ALIGNMENT - size;
      if (padding > 0) writeSync(fd, Buffer.alloc(padding));
    }
  } finally {
    closeSync(fd);
  }
}
