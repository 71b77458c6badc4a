import { createHash, randomBytes } from "node:crypto";
import type { LlamaModel, Token } from "node-llama-cpp";
import { RequestError } from "./request-error.ts";

/**
 * Canonical prompt tokens: the model reads exactly the rendered prompt text tokenized as a whole, as llama.cpp
 * (and so llama-server) tokenizes a text prompt: special-token texts parsed, BOS first when the vocabulary adds
 * one. Nothing is tokenized in parts and stitched together. The prompt is split only where that tokenization is
 * stable: `tokens[0..prefixLength)` is itself the tokenization of the text up to the split, so every prompt over
 * the same state starts with the same tokens and the state can be evaluated once and shared.
 */

/** How a system+user exchange becomes the prompt text. */
export type PromptTemplate = {
  kind: "gguf" | "fallback";
  /** The exact text the model reads (special-token texts included) and whether the tokenizer puts BOS first. */
  render(system: string, user: string): { text: string; bos: boolean };
};

export type CanonicalPrompt = {
  /** The rendered prompt, exactly (`sha256` is its hash). */
  text: string;
  bos: boolean;
  /** Whole-text tokenization of `text`, BOS first when `bos`. */
  tokens: Token[];
  /** `tokens[0..prefixLength)` = tokenization of the text up to the state's end (or the nearest stable point). */
  prefixLength: number;
  /** Tokens of each label after the prompt, in context (the whole text plus the label, tokenized). */
  labels: Token[][];
  sha256: string;
};

const STATE_END = `\u0000state-end-${randomBytes(8).toString("hex")}\u0000`;
const CONTROL = 3;
const USER_DEFINED = 4;
/** How many earlier whitespace positions are tried when the state's end is not a stable split. */
const SPLIT_ATTEMPTS = 12;

export class CanonicalPromptBuilder {
  private readonly types: readonly number[];
  private readonly skeletonControls: number;
  private readonly labelCache = new Map<string, Token[][]>();

  constructor(
    private readonly model: LlamaModel,
    readonly template: PromptTemplate,
    private readonly system: string,
  ) {
    const ggml = model.fileInfo.metadata.tokenizer.ggml as { token_type?: readonly number[] };
    this.types = ggml?.token_type ?? [];
    const skeleton = template.render(system, "x");
    this.skeletonControls = this.controlCount(this.tokenize(skeleton.text, skeleton.bos));
  }

  /**
   * `userBeforeSplit` ends where the shared state ends; `userAfterSplit` is the rest of the user message. `labels`
   * are the option labels whose tokens after the prompt are resolved in context.
   */
  build(userBeforeSplit: string, userAfterSplit: string, labels: readonly string[]): CanonicalPrompt {
    const marked = this.template.render(this.system, `${userBeforeSplit}${STATE_END}${userAfterSplit}`);
    const at = marked.text.indexOf(STATE_END);
    if (at < 0) throw new Error("the chat template dropped the user message; the prompt cannot be split at the state");
    const text = marked.text.slice(0, at) + marked.text.slice(at + STATE_END.length);
    const { bos } = marked;
    const tokens = this.tokenize(text, bos);
    if (this.controlCount(tokens) !== this.skeletonControls) {
      // User text is refused earlier when it holds a control token's text; this guards the rest of the way.
      throw new RequestError("Decision fields cannot contain reserved prompt control tokens");
    }
    return {
      text,
      bos,
      tokens,
      prefixLength: this.stableSplit(text, bos, tokens, at),
      labels: this.labelTokens(text, bos, tokens, labels),
      sha256: createHash("sha256").update(text).digest("hex"),
    };
  }

  private tokenize(text: string, bos: boolean): Token[] {
    const tokens = this.model.tokenize(text, true);
    return bos ? [this.model.tokens.bos!, ...tokens] : tokens;
  }

  private controlCount(tokens: readonly Token[]): number {
    return tokens.reduce((count, token) => count + (this.types[token] === CONTROL ? 1 : 0), 0);
  }

  /**
   * The largest split at or before character `at` (the state's end, else an earlier whitespace) whose text alone
   * tokenizes to the first tokens of the whole prompt: `tokenize(a) + rest == tokenize(a + b)`.
   */
  private stableSplit(text: string, bos: boolean, tokens: readonly Token[], at: number): number {
    const candidates = [at];
    for (let index = at - 1; index > 0 && candidates.length <= SPLIT_ATTEMPTS; index--) {
      if (/\s/.test(text[index]!) && !/\s/.test(text[index - 1]!)) candidates.push(index);
    }
    for (const split of candidates) {
      const head = this.tokenize(text.slice(0, split), bos);
      if (head.length <= tokens.length && head.every((token, index) => tokens[index] === token)) return head.length;
    }
    return bos ? 1 : 0;
  }

  /**
   * Each label's tokens as they follow the prompt: `tokenize(prompt + label)` minus the prompt's tokens, which
   * must come out unchanged. llama.cpp tokenizes the text between special tokens piece by piece, so only the text
   * from the prompt's last special token on can affect a label: that part is what is tokenized (and cached).
   */
  private labelTokens(text: string, bos: boolean, tokens: readonly Token[], labels: readonly string[]): Token[][] {
    if (labels.length === 0) return [];
    let last = tokens.length - 1;
    while (last >= 0 && this.types[tokens[last]!] !== CONTROL && this.types[tokens[last]!] !== USER_DEFINED) last--;
    const specialText = last >= 0 ? this.model.detokenize([tokens[last]!], true) : "";
    const fromSpecial = last > 0 || !bos ? text.lastIndexOf(specialText) : -1;
    const probe =
      last >= 0 && fromSpecial >= 0 && specialText !== ""
        ? { text: text.slice(fromSpecial), bos: false, tokens: tokens.slice(last) }
        : { text, bos, tokens };
    if (probe.tokens !== tokens) {
      const check = this.tokenize(probe.text, false);
      if (check.length !== probe.tokens.length || check.some((token, index) => probe.tokens[index] !== token)) {
        return this.resolveLabels({ text, bos, tokens }, labels);
      }
    }
    const key = `${probe.bos}\u0000${probe.text}\u0000${labels.join("\u0000")}`;
    const cached = this.labelCache.get(key);
    if (cached) return cached;
    const resolved = this.resolveLabels(probe, labels);
    if (this.labelCache.size >= 64) this.labelCache.delete(this.labelCache.keys().next().value!);
    this.labelCache.set(key, resolved);
    return resolved;
  }

  private resolveLabels(
    context: { text: string; bos: boolean; tokens: readonly Token[] },
    labels: readonly string[],
  ): Token[][] {
    return labels.map((label) => {
      const extended = this.tokenize(context.text + label, context.bos);
      const sameStart = context.tokens.every((token, index) => extended[index] === token);
      if (!sameStart || extended.length <= context.tokens.length) {
        throw new Error(`option label ${label} does not follow the prompt as tokens of its own`);
      }
      return extended.slice(context.tokens.length);
    });
  }
}

/**
 * The state prefix that prompts share: their longest common start, ending no later than any prompt's stable split
 * after the state (so the state is evaluated in a pass of its own) and leaving each prompt at least one token.
 */
export function sharedPrefix(prompts: ReadonlyArray<{ tokens: readonly Token[]; prefixLength: number }>): Token[] {
  const first = prompts[0]!.tokens;
  let length = Math.min(...prompts.map((prompt) => Math.min(prompt.prefixLength, prompt.tokens.length - 1)));
  for (const prompt of prompts) {
    let index = 0;
    while (index < length && prompt.tokens[index] === first[index]) index++;
    length = index;
  }
  return first.slice(0, length);
}
