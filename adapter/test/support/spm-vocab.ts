import type { MetadataValue } from "./gguf-writer.ts";

/**
 * A SentencePiece-style (`tokenizer.ggml.model = "llama"`) vocabulary that llama.cpp tokenizes like a real one:
 * <unk>, <s>, </s>, 256 byte-fallback tokens, optional chat control tokens, "▁", printable ASCII characters, and
 * whole words with every "▁"-prefix of them (SPM merges only into pieces that exist), padded to a target size.
 */

export const UNKNOWN = 0;
export const BOS = 1;
export const EOS = 2;
export const FIRST_BYTE = 3;
export const byteToken = (byte: number) => FIRST_BYTE + byte;

const TYPE = { normal: 1, unknown: 2, control: 3, userDefined: 4, byte: 6 } as const;

export const COMMON_WORDS = `the a an and or not no yes is are was were be been has have had do does did to of in on at by
for with from as it its this that these those if then else when while than but so because which who whom what where
why how all any each every some many more most less few other such only own same very can could will would should may
might must shall state question options option reply letter one choose choosing exactly listed answer model decision
read refund refunds customer policy purchase receipt days day user users request requested action permitted allowed
deny approve approved escalate ticket priority high low medium urgent account payment plan paid trial export file
support issue error order orders email data delete access admin manager team time date days stated required
condition conditions missing prohibition applies established treat unproved satisfied every needs need no none
once upon there little girl boy dog cat happy sad big small good bad new old first last next previous true false
please help can cannot service product price cost amount total invoice shipping delivery late early return returns
within after before during under over above below between into out up down about against again further here
there now today tomorrow yesterday week month year report reports review risk safe unsafe fraud valid invalid
category label score level rate confidence probability value high medium low critical major minor blocker`;

export type VocabularyOptions = {
  /** Add ChatML control tokens and Qwen3-style <think> markers. */
  chatTokens: boolean;
  /** Extra text whose words become whole-word pieces (e.g. a benchmark corpus). */
  extraText?: string;
  /** Pad with unreachable filler pieces up to this many tokens (a realistic output-layer size). */
  targetSize?: number;
};

export type Vocabulary = {
  kind: "spm";
  tokens: string[];
  scores: number[];
  types: number[];
  imStart: number | null;
  imEnd: number | null;
  /** Token id of each single-character piece. */
  pieceId: (piece: string) => number | undefined;
};

export function buildVocabulary(options: VocabularyOptions): Vocabulary {
  const tokens: string[] = [];
  const scores: number[] = [];
  const types: number[] = [];
  const ids = new Map<string, number>();
  const add = (text: string, type: number, score: number) => {
    if (ids.has(text)) return ids.get(text)!;
    ids.set(text, tokens.length);
    tokens.push(text);
    scores.push(score);
    types.push(type);
    return tokens.length - 1;
  };
  add("<unk>", TYPE.unknown, 0);
  add("<s>", TYPE.control, 0);
  add("</s>", TYPE.control, 0);
  for (let byte = 0; byte < 256; byte++) {
    add(`<0x${byte.toString(16).toUpperCase().padStart(2, "0")}>`, TYPE.byte, 0);
  }
  let imStart: number | null = null;
  let imEnd: number | null = null;
  if (options.chatTokens) {
    imStart = add("<|im_start|>", TYPE.control, 0);
    imEnd = add("<|im_end|>", TYPE.control, 0);
    add("<think>", TYPE.userDefined, 0);
    add("</think>", TYPE.userDefined, 0);
  }
  add("▁", TYPE.normal, -1000);
  for (let code = 0x21; code <= 0x7e; code++) add(String.fromCharCode(code), TYPE.normal, -1000);
  const words = new Set(`${COMMON_WORDS} ${options.extraText ?? ""}`.toLowerCase().match(/[a-z]+/g) ?? []);
  for (const word of [...words].sort()) {
    for (const variant of new Set([word, word[0]!.toUpperCase() + word.slice(1)])) {
      for (let length = 1; length <= variant.length; length++) {
        add(`▁${variant.slice(0, length)}`, TYPE.normal, -100 + length);
      }
    }
  }
  for (let filler = 0; tokens.length < (options.targetSize ?? 0); filler++) {
    add(`▁~${filler.toString(36)}`, TYPE.normal, -10000);
  }
  return { kind: "spm", tokens, scores, types, imStart, imEnd, pieceId: (piece) => ids.get(piece) };
}

/** Qwen3-style ChatML template: a closed empty <think> block after the generation prompt when thinking is off. */
export const CHATML_THINKING_TEMPLATE =
  "{%- for message in messages %}{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>' + '\\n' }}" +
  "{%- endfor %}{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}" +
  "{%- if enable_thinking is defined and enable_thinking is false %}{{- '<think>\\n\\n</think>\\n\\n' }}{%- endif %}" +
  "{%- endif %}";

export function tokenizerMetadata(vocabulary: Vocabulary, chatTemplate: string | null): Record<string, MetadataValue> {
  const metadata: Record<string, MetadataValue> = {
    "tokenizer.ggml.model": { type: "string", value: "llama" },
    "tokenizer.ggml.tokens": { type: "strings", value: vocabulary.tokens },
    "tokenizer.ggml.scores": { type: "f32s", value: vocabulary.scores },
    "tokenizer.ggml.token_type": { type: "i32s", value: vocabulary.types },
    "tokenizer.ggml.bos_token_id": { type: "u32", value: BOS },
    "tokenizer.ggml.eos_token_id": { type: "u32", value: EOS },
    "tokenizer.ggml.unknown_token_id": { type: "u32", value: UNKNOWN },
    "tokenizer.ggml.add_bos_token": { type: "bool", value: chatTemplate === null },
    "tokenizer.ggml.add_eos_token": { type: "bool", value: false },
  };
  if (vocabulary.imEnd !== null) metadata["tokenizer.ggml.eot_token_id"] = { type: "u32", value: vocabulary.imEnd };
  if (chatTemplate !== null) metadata["tokenizer.chat_template"] = { type: "string", value: chatTemplate };
  return metadata;
}
