import type { MetadataValue } from "./gguf-writer.ts";
import { COMMON_WORDS } from "./spm-vocab.ts";

/**
 * A byte-level BPE vocabulary (`tokenizer.ggml.model = "gpt2"`, Qwen2's pre-tokenizer), tokenized by llama.cpp
 * like Qwen's and Llama 3's: the 256 byte symbols of GPT-2's byte-to-unicode map, merges that build each known
 * word (with and without its leading space "Ġ", lower- and capitalised) left to right, and ChatML control tokens.
 */

export type BpeVocabulary = {
  kind: "bpe";
  tokens: string[];
  types: number[];
  merges: string[];
  imStart: number;
  imEnd: number;
  /** Token id of a piece given as text ("A", " the"). */
  pieceId: (text: string) => number | undefined;
};

const TYPE = { normal: 1, control: 3, userDefined: 4 } as const;

/** GPT-2's reversible map from bytes to printable characters (bytes_to_unicode). */
function byteSymbols(): string[] {
  const printable = new Set<number>();
  for (let b = 0x21; b <= 0x7e; b++) printable.add(b);
  for (let b = 0xa1; b <= 0xac; b++) printable.add(b);
  for (let b = 0xae; b <= 0xff; b++) printable.add(b);
  const symbols: string[] = [];
  let extra = 0;
  for (let b = 0; b < 256; b++) symbols.push(String.fromCodePoint(printable.has(b) ? b : 256 + extra++));
  return symbols;
}

const SYMBOLS = byteSymbols();
const encode = (text: string) => [...Buffer.from(text, "utf8")].map((byte) => SYMBOLS[byte]!).join("");

export function buildBpeVocabulary(options: { extraText?: string } = {}): BpeVocabulary {
  const tokens: string[] = [];
  const types: number[] = [];
  const merges: string[] = [];
  const ids = new Map<string, number>();
  const add = (token: string, type: number) => {
    if (!ids.has(token)) {
      ids.set(token, tokens.length);
      tokens.push(token);
      types.push(type);
    }
    return ids.get(token)!;
  };
  for (const symbol of SYMBOLS) add(symbol, TYPE.normal);
  const words = new Set(`${COMMON_WORDS} ${options.extraText ?? ""}`.toLowerCase().match(/[a-z]+/g) ?? []);
  for (const word of [...words].sort()) {
    for (const variant of [word, word[0]!.toUpperCase() + word.slice(1)]) {
      for (const text of [variant, ` ${variant}`]) {
        const symbols = [...encode(text)];
        let built = symbols[0]!;
        for (const next of symbols.slice(1)) {
          const merged = built + next;
          if (!ids.has(merged)) {
            merges.push(`${built} ${next}`);
            add(merged, TYPE.normal);
          }
          built = merged;
        }
      }
    }
  }
  add("<|endoftext|>", TYPE.control);
  const imStart = add("<|im_start|>", TYPE.control);
  const imEnd = add("<|im_end|>", TYPE.control);
  add("<think>", TYPE.userDefined);
  add("</think>", TYPE.userDefined);
  return { kind: "bpe", tokens, types, merges, imStart, imEnd, pieceId: (text) => ids.get(encode(text)) };
}

export function bpeTokenizerMetadata(
  vocabulary: BpeVocabulary,
  chatTemplate: string | null,
): Record<string, MetadataValue> {
  const endOfText = vocabulary.tokens.indexOf("<|endoftext|>");
  const metadata: Record<string, MetadataValue> = {
    "tokenizer.ggml.model": { type: "string", value: "gpt2" },
    "tokenizer.ggml.pre": { type: "string", value: "qwen2" },
    "tokenizer.ggml.tokens": { type: "strings", value: vocabulary.tokens },
    "tokenizer.ggml.token_type": { type: "i32s", value: vocabulary.types },
    "tokenizer.ggml.merges": { type: "strings", value: vocabulary.merges },
    "tokenizer.ggml.bos_token_id": { type: "u32", value: endOfText },
    "tokenizer.ggml.eos_token_id": { type: "u32", value: vocabulary.imEnd },
    "tokenizer.ggml.padding_token_id": { type: "u32", value: endOfText },
    "tokenizer.ggml.add_bos_token": { type: "bool", value: false },
    "tokenizer.ggml.eot_token_id": { type: "u32", value: vocabulary.imEnd },
  };
  if (chatTemplate !== null) metadata["tokenizer.chat_template"] = { type: "string", value: chatTemplate };
  return metadata;
}
