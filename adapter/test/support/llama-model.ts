import { type BpeVocabulary, bpeTokenizerMetadata, buildBpeVocabulary } from "./bpe-vocab.ts";
import { type MetadataValue, type TensorSource, type TensorSpec, type TensorType, writeGguf } from "./gguf-writer.ts";
import { buildVocabulary, CHATML_THINKING_TEMPLATE, tokenizerMetadata, type Vocabulary } from "./spm-vocab.ts";

/**
 * GGUF models for tests and benchmarks, written by the project's own GGUF writer: llama-architecture
 * transformers with a SentencePiece-style or a byte-level BPE vocabulary, and a recurrent (Mamba) model.
 */

export type LlamaShape = {
  embedding: number;
  layers: number;
  heads: number;
  kvHeads: number;
  feedForward: number;
  contextLength: number;
};

export type ModelKind = "tiny" | "closed-form" | "medium" | "bench-0.5b" | "tiny-bpe" | "tiny-mamba" | "tiny-hybrid";
export const MODEL_KINDS: readonly ModelKind[] = [
  "tiny",
  "closed-form",
  "medium",
  "bench-0.5b",
  "tiny-bpe",
  "tiny-mamba",
  "tiny-hybrid",
];

/**
 * Mamba's selective state-space block (d_inner = 2 x embedding). Alone it is llama.cpp's `mamba` architecture;
 * `hybrid` makes it `jamba`: Mamba layers (even) and attention layers (odd) alternate, each followed by a
 * feed-forward block, with recurrent state and KV cache side by side as in Qwen3.5-style hybrid models.
 */
export type MambaShape = { stateSize: number; convKernel: number; timeStepRank: number; hybrid: boolean };

export type ModelSpec = {
  name: string;
  shape: LlamaShape;
  weightType: TensorType;
  vocabulary: Vocabulary | BpeVocabulary;
  /** Set for a recurrent model: blocks are Mamba layers instead of attention and feed-forward. */
  mamba?: MambaShape;
  chatTemplate: string | null;
  /** Zero attention and feed-forward weights: logits depend only on the last token (see closedFormLogits). */
  closedForm: boolean;
  /** No output.weight: llama.cpp then uses the token embedding as the output layer (as Qwen2.5-0.5B does). */
  tiedOutput: boolean;
  /** Spread of random block weights and of the output layer: small enough that activations stay tame. */
  weightScale: number;
  outputScale: number;
  seed: number;
};

export const RMS_EPSILON = 1e-5;

/** mulberry32: a small seeded generator, so weights can be recomputed by tests. */
export function seededUniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function uniformValues(count: number, random: () => number, low: number, high: number): Float32Array {
  const values = new Float32Array(count);
  for (let i = 0; i < count; i++) values[i] = low + (high - low) * random();
  return values;
}

/** The weights that decide a closed-form model's output: token embedding, output norm and output matrix. */
export function closedFormWeights(spec: ModelSpec) {
  const random = seededUniform(spec.seed);
  const vocab = spec.vocabulary.tokens.length;
  const n = spec.shape.embedding;
  return {
    embedding: uniformValues(vocab * n, random, -1, 1),
    outputNorm: uniformValues(n, random, 0.5, 1.5),
    output: uniformValues(vocab * n, random, -0.5, 0.5),
  };
}

/** Expected logits of a closed-form model after `lastToken`, in float64: output · (g ⊙ x / rms(x)). */
export function closedFormLogits(spec: ModelSpec, lastToken: number): number[] {
  const { embedding, outputNorm, output } = closedFormWeights(spec);
  const n = spec.shape.embedding;
  const x = Array.from({ length: n }, (_, j) => embedding[lastToken * n + j]!);
  const rms = Math.sqrt(x.reduce((sum, value) => sum + value * value, 0) / n + RMS_EPSILON);
  const normed = x.map((value, j) => (value / rms) * outputNorm[j]!);
  return Array.from({ length: spec.vocabulary.tokens.length }, (_, v) =>
    normed.reduce((sum, value, j) => sum + output[v * n + j]! * value, 0),
  );
}

export type ModelOptions = {
  extraText?: string;
  weightType?: TensorType;
  /** The training context length written into the GGUF, instead of the kind's own. */
  contextLength?: number;
};

/** The kind's model, with its training context replaced when `options.contextLength` is given. */
export function modelSpec(kind: ModelKind, options: ModelOptions = {}): ModelSpec {
  const spec = kindSpec(kind, options);
  return options.contextLength ? { ...spec, shape: { ...spec.shape, contextLength: options.contextLength } } : spec;
}

function kindSpec(kind: ModelKind, options: ModelOptions): ModelSpec {
  if (kind === "bench-0.5b") {
    return {
      name: "synthetic-qwen2.5-0.5b-shape",
      shape: { embedding: 896, layers: 24, heads: 14, kvHeads: 2, feedForward: 4864, contextLength: 32768 },
      weightType: options.weightType ?? "Q8_0",
      vocabulary: buildVocabulary({ chatTokens: true, extraText: options.extraText, targetSize: 151936 }),
      chatTemplate: CHATML_THINKING_TEMPLATE,
      closedForm: false,
      tiedOutput: true,
      weightScale: 0.02,
      outputScale: 0.1,
      seed: 5,
    };
  }
  if (kind === "medium") {
    return {
      name: "synthetic-medium",
      shape: { embedding: 512, layers: 8, heads: 8, kvHeads: 4, feedForward: 1536, contextLength: 4096 },
      weightType: options.weightType ?? "Q8_0",
      vocabulary: buildVocabulary({ chatTokens: true, extraText: options.extraText }),
      chatTemplate: CHATML_THINKING_TEMPLATE,
      closedForm: false,
      tiedOutput: false,
      weightScale: 0.02,
      outputScale: 0.1,
      seed: 13,
    };
  }
  if (kind === "tiny-bpe") {
    return { ...kindSpec("tiny", options), name: "synthetic-tiny-bpe", vocabulary: buildBpeVocabulary(options) };
  }
  if (kind === "tiny-mamba") {
    return {
      ...kindSpec("tiny", options),
      name: "synthetic-tiny-mamba",
      mamba: { stateSize: 16, convKernel: 4, timeStepRank: 4, hybrid: false },
      seed: 17,
    };
  }
  if (kind === "tiny-hybrid") {
    return {
      ...kindSpec("tiny", options),
      name: "synthetic-tiny-hybrid",
      mamba: { stateSize: 16, convKernel: 4, timeStepRank: 4, hybrid: true },
      seed: 19,
    };
  }
  return {
    name: kind === "tiny" ? "synthetic-tiny" : "synthetic-closed-form",
    shape: { embedding: 64, layers: 2, heads: 4, kvHeads: 2, feedForward: 128, contextLength: 4096 },
    weightType: options.weightType ?? "F32",
    vocabulary: buildVocabulary({ chatTokens: true, extraText: options.extraText }),
    chatTemplate: CHATML_THINKING_TEMPLATE,
    closedForm: kind === "closed-form",
    tiedOutput: false,
    weightScale: 0.05,
    outputScale: 0.5,
    seed: kind === "tiny" ? 11 : 7,
  };
}

function architectureMetadata(spec: ModelSpec): Record<string, MetadataValue> {
  const { shape } = spec;
  const fileType = { F32: 0, F16: 1, Q8_0: 7 }[spec.weightType];
  if (spec.mamba) {
    const arch = spec.mamba.hybrid ? "jamba" : "mamba";
    const layers = Array.from({ length: shape.layers }, (_, layer) => layer);
    return {
      "general.architecture": { type: "string", value: arch },
      "general.name": { type: "string", value: spec.name },
      "general.file_type": { type: "u32", value: fileType },
      [`${arch}.context_length`]: { type: "u32", value: shape.contextLength },
      [`${arch}.embedding_length`]: { type: "u32", value: shape.embedding },
      [`${arch}.block_count`]: { type: "u32", value: shape.layers },
      [`${arch}.feed_forward_length`]: { type: "u32", value: spec.mamba.hybrid ? shape.feedForward : 0 },
      [`${arch}.attention.head_count`]: { type: "u32", value: spec.mamba.hybrid ? shape.heads : 0 },
      ...(spec.mamba.hybrid
        ? {
            [`${arch}.attention.head_count_kv`]: {
              type: "i32s",
              value: layers.map((layer) => (layer % 2 === 0 ? 0 : shape.kvHeads)),
            },
          }
        : {}),
      [`${arch}.ssm.conv_kernel`]: { type: "u32", value: spec.mamba.convKernel },
      [`${arch}.ssm.inner_size`]: { type: "u32", value: 2 * shape.embedding },
      [`${arch}.ssm.state_size`]: { type: "u32", value: spec.mamba.stateSize },
      [`${arch}.ssm.time_step_rank`]: { type: "u32", value: spec.mamba.timeStepRank },
      [`${arch}.attention.layer_norm_rms_epsilon`]: { type: "f32", value: RMS_EPSILON },
    };
  }
  return {
    "general.architecture": { type: "string", value: "llama" },
    "general.name": { type: "string", value: spec.name },
    "general.file_type": { type: "u32", value: fileType },
    "llama.context_length": { type: "u32", value: shape.contextLength },
    "llama.embedding_length": { type: "u32", value: shape.embedding },
    "llama.block_count": { type: "u32", value: shape.layers },
    "llama.feed_forward_length": { type: "u32", value: shape.feedForward },
    "llama.attention.head_count": { type: "u32", value: shape.heads },
    "llama.attention.head_count_kv": { type: "u32", value: shape.kvHeads },
    "llama.rope.dimension_count": { type: "u32", value: shape.embedding / shape.heads },
    "llama.rope.freq_base": { type: "f32", value: 10000 },
    "llama.attention.layer_norm_rms_epsilon": { type: "f32", value: RMS_EPSILON },
    "llama.vocab_size": { type: "u32", value: spec.vocabulary.tokens.length },
  };
}

function tensors(spec: ModelSpec): TensorSpec[] {
  const { shape, weightType } = spec;
  const n = shape.embedding;
  const vocab = spec.vocabulary.tokens.length;
  const kv = (n / shape.heads) * shape.kvHeads;
  const ones = (count: number): TensorSource => ({ values: new Float32Array(count).fill(1) });
  const weight: TensorSource = spec.closedForm ? { zeros: true } : { random: { scale: spec.weightScale } };
  const list: TensorSpec[] = [];
  const closed = spec.closedForm ? closedFormWeights(spec) : null;
  list.push({
    name: "token_embd.weight",
    dims: [n, vocab],
    type: weightType,
    source: closed ? { values: closed.embedding } : { random: { scale: 1 } },
  });
  for (let layer = 0; layer < shape.layers; layer++) {
    const block = `blk.${layer}`;
    list.push({ name: `${block}.attn_norm.weight`, dims: [n], type: "F32", source: ones(n) });
    if (spec.mamba && (!spec.mamba.hybrid || layer % 2 === 0)) {
      list.push(...mambaBlock(block, n, spec.mamba, weightType, spec.weightScale));
    } else {
      list.push(
        { name: `${block}.attn_q.weight`, dims: [n, n], type: weightType, source: weight },
        { name: `${block}.attn_k.weight`, dims: [n, kv], type: weightType, source: weight },
        { name: `${block}.attn_v.weight`, dims: [n, kv], type: weightType, source: weight },
        { name: `${block}.attn_output.weight`, dims: [n, n], type: weightType, source: weight },
      );
    }
    if (spec.mamba && !spec.mamba.hybrid) continue;
    list.push(
      { name: `${block}.ffn_norm.weight`, dims: [n], type: "F32", source: ones(n) },
      { name: `${block}.ffn_gate.weight`, dims: [n, shape.feedForward], type: weightType, source: weight },
      { name: `${block}.ffn_up.weight`, dims: [n, shape.feedForward], type: weightType, source: weight },
      { name: `${block}.ffn_down.weight`, dims: [shape.feedForward, n], type: weightType, source: weight },
    );
  }
  list.push({
    name: "output_norm.weight",
    dims: [n],
    type: "F32",
    source: closed ? { values: closed.outputNorm } : ones(n),
  });
  if (!spec.tiedOutput) {
    list.push({
      name: "output.weight",
      dims: [n, vocab],
      type: weightType,
      source: closed ? { values: closed.output } : { random: { scale: spec.outputScale } },
    });
  }
  return list;
}

/**
 * One Mamba block: in-projection, causal 1-D convolution, input-dependent (selective) state-space scan with
 * A = -(1..d_state) as in Mamba's initialisation, skip D = 1, out-projection; Jamba adds RMS norms of dt, B, C.
 */
function mambaBlock(block: string, n: number, mamba: MambaShape, type: TensorType, scale: number): TensorSpec[] {
  const inner = 2 * n;
  const { stateSize, convKernel, timeStepRank } = mamba;
  const random = (s: number): TensorSource => ({ random: { scale: s } });
  const filled = (count: number, value: (index: number) => number): TensorSource => ({
    values: Float32Array.from({ length: count }, (_, index) => value(index)),
  });
  const norms: TensorSpec[] = mamba.hybrid
    ? [
        {
          name: `${block}.ssm_dt_norm.weight`,
          dims: [timeStepRank],
          type: "F32",
          source: filled(timeStepRank, () => 1),
        },
        { name: `${block}.ssm_b_norm.weight`, dims: [stateSize], type: "F32", source: filled(stateSize, () => 1) },
        { name: `${block}.ssm_c_norm.weight`, dims: [stateSize], type: "F32", source: filled(stateSize, () => 1) },
      ]
    : [];
  return [
    ...norms,
    { name: `${block}.ssm_in.weight`, dims: [n, 2 * inner], type, source: random(scale) },
    { name: `${block}.ssm_conv1d.weight`, dims: [convKernel, inner], type: "F32", source: random(0.3) },
    { name: `${block}.ssm_conv1d.bias`, dims: [inner], type: "F32", source: filled(inner, () => 0) },
    { name: `${block}.ssm_x.weight`, dims: [inner, timeStepRank + 2 * stateSize], type, source: random(scale) },
    { name: `${block}.ssm_dt.weight`, dims: [timeStepRank, inner], type, source: random(scale) },
    { name: `${block}.ssm_dt.bias`, dims: [inner], type: "F32", source: filled(inner, () => -3) },
    {
      name: `${block}.ssm_a`,
      dims: [stateSize, inner],
      type: "F32",
      source: filled(stateSize * inner, (index) => -(1 + (index % stateSize))),
    },
    { name: `${block}.ssm_d`, dims: [inner], type: "F32", source: filled(inner, () => 1) },
    { name: `${block}.ssm_out.weight`, dims: [inner, n], type, source: random(scale) },
  ];
}

function modelMetadata(spec: ModelSpec): Record<string, MetadataValue> {
  const vocabulary =
    spec.vocabulary.kind === "bpe"
      ? bpeTokenizerMetadata(spec.vocabulary, spec.chatTemplate)
      : tokenizerMetadata(spec.vocabulary, spec.chatTemplate);
  return { ...architectureMetadata(spec), ...vocabulary };
}

export function writeModel(spec: ModelSpec, file: string): void {
  writeGguf(file, modelMetadata(spec), tensors(spec));
}

/** The model's metadata and vocabulary without weights: enough to load it vocabulary-only (tokenizer tests). */
export function writeVocabularyOnly(spec: ModelSpec, file: string): void {
  writeGguf(file, modelMetadata(spec), []);
}
