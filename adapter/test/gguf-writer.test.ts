import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { readGgufFileInfo } from "node-llama-cpp";
import { afterAll, describe, expect, it } from "vitest";
import { fromHalf, toHalf, writeGguf } from "./support/gguf-writer.ts";
import { buildVocabulary } from "./support/spm-vocab.ts";

const directory = mkdtempSync(path.join(os.tmpdir(), "gguf-writer-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("half-precision encoding", () => {
  it("encodes known values exactly", () => {
    expect(toHalf(0)).toBe(0);
    expect(toHalf(1)).toBe(0x3c00);
    expect(toHalf(-2)).toBe(0xc000);
    expect(toHalf(65504)).toBe(0x7bff);
    expect(toHalf(1e6)).toBe(0x7c00);
  });
  it("round-trips values within half precision", () => {
    for (const value of [0.1, -0.333, Math.PI, 1e-3, 123.456, -0.02]) {
      expect(Math.abs(fromHalf(toHalf(value)) - value)).toBeLessThanOrEqual(Math.abs(value) * 2 ** -11);
    }
  });
});

describe("GGUF v3 file", () => {
  const file = path.join(directory, "small.gguf");
  const values = Float32Array.from({ length: 64 }, (_, i) => Math.sin(i) * 0.5);
  writeGguf(
    file,
    {
      "general.architecture": { type: "string", value: "llama" },
      "test.strings": { type: "strings", value: ["a", "▁b"] },
      "test.flag": { type: "bool", value: true },
    },
    [
      { name: "f32", dims: [64], type: "F32", source: { values } },
      { name: "f16", dims: [32, 2], type: "F16", source: { values } },
      { name: "q8", dims: [32, 2], type: "Q8_0", source: { values } },
    ],
  );

  it("is read back by node-llama-cpp's GGUF parser with its metadata and tensor table", async () => {
    const info = await readGgufFileInfo(file, { logWarnings: false });
    expect(info.version).toBe(3);
    expect(info.metadata.general.architecture).toBe("llama");
    expect((info.metadata as unknown as { test: { strings: string[]; flag: boolean } }).test).toEqual({
      strings: ["a", "▁b"],
      flag: true,
    });
    expect(info.fullTensorInfo?.map((tensor) => [tensor.name, tensor.dimensions.map(Number), tensor.ggmlType])).toEqual(
      [
        ["f32", [64], 0],
        ["f16", [32, 2], 1],
        ["q8", [32, 2], 8],
      ],
    );
  });

  it("stores Q8_0 blocks as an f16 scale and 32 int8 quants that dequantize to the values", async () => {
    const info = await readGgufFileInfo(file, { logWarnings: false });
    const q8 = info.fullTensorInfo!.find((tensor) => tensor.name === "q8")!;
    const bytes = readFileSync(file).subarray(Number(q8.fileOffset), Number(q8.fileOffset) + 68);
    for (let block = 0; block < 2; block++) {
      const scale = fromHalf(bytes.readUInt16LE(block * 34));
      for (let i = 0; i < 32; i++) {
        const dequantized = scale * bytes.readInt8(block * 34 + 2 + i);
        expect(Math.abs(dequantized - values[block * 32 + i]!)).toBeLessThanOrEqual(scale / 2 + 1e-4);
      }
    }
  });
});

describe("SentencePiece-style vocabulary", () => {
  it("has the llama special tokens, 256 byte tokens and every ▁-prefix of each word", () => {
    const vocabulary = buildVocabulary({ chatTokens: true, extraText: "refund" });
    expect(vocabulary.tokens.slice(0, 4)).toEqual(["<unk>", "<s>", "</s>", "<0x00>"]);
    expect(vocabulary.tokens[258]).toBe("<0xFF>");
    for (const piece of ["▁r", "▁re", "▁ref", "▁refu", "▁refun", "▁refund", "<|im_start|>", "A"]) {
      expect(vocabulary.pieceId(piece)).toBeDefined();
    }
    expect(buildVocabulary({ chatTokens: false, targetSize: 5000 }).tokens).toHaveLength(5000);
  });
});
