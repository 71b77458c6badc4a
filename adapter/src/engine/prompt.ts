import { createHash, randomBytes } from "node:crypto";
import { Template } from "@huggingface/jinja";
import { type LlamaModel, LlamaText, SpecialToken, SpecialTokensText, type Token } from "node-llama-cpp";
import { ANSWER_LETTERS, type Decision, renderState } from "../contract/decision.ts";
import { codeTokensAfter, optionCodes, SINGLE_LETTER_LIMIT } from "./multi-token.ts";

export const PROMPT_VERSION = "decision-prompt-v1";

const SYSTEM_PROMPT =
  "You are a decision model. Read the state, answer the question by choosing exactly one of the listed options, " +
  "and reply with that option's letter only.";
const tailInstruction = (count: number) =>
  count <= SINGLE_LETTER_LIMIT
    ? "Reply with the letter of one option."
    : "Reply with the two-letter code of one option.";

/** How a system+user exchange becomes model input, and what comes between the prompt's end and the letter. */
export type PromptTemplate = {
  kind: "gguf" | "fallback";
  render(system: string, user: string): LlamaText;
  letterPrefix: string;
};

/**
 * Used when the GGUF has no `tokenizer.chat_template` (or ADAPTER_PROMPT_TEMPLATE=fallback): BOS, the system
 * text, the user text, then `Answer:` and a line break, after which the letter comes. The line break (rather than
 * a space) keeps the letter a token of its own even in small SentencePiece vocabularies without "▁A" pieces.
 */
export const fallbackTemplate: PromptTemplate = {
  kind: "fallback",
  render: (system, user) => LlamaText([new SpecialToken("BOS"), `${system}\n\n${user}\n\nAnswer:\n`]),
  letterPrefix: "",
};

/**
 * The GGUF's own Jinja chat template, rendered as `apply_chat_template(messages, add_generation_prompt=True,
 * enable_thinking=False)` would (SemIf's rendering): Qwen3-style templates then close an empty think block, so the
 * very next token is the answer. Template text is tokenized with special tokens on, message text with them off.
 * Templates that reject a system message get the system text at the start of the user message.
 */
export function ggufTemplate(source: string, model: LlamaModel): PromptTemplate {
  const template = new Template(source);
  const ids = {
    system: `\u0000system-${randomBytes(8).toString("hex")}\u0000`,
    user: `\u0000user-${randomBytes(8).toString("hex")}\u0000`,
  };
  const renderWith = (messages: Array<{ role: string; content: string }>) =>
    template.render({
      messages,
      add_generation_prompt: true,
      enable_thinking: false,
      bos_token: model.tokens.bosString ?? "",
      eos_token: model.tokens.eosString ?? "",
    });
  let rendered: string;
  try {
    rendered = renderWith([
      { role: "system", content: ids.system },
      { role: "user", content: ids.user },
    ]);
    if (!rendered.includes(ids.system)) throw new Error("system message dropped");
  } catch {
    rendered = renderWith([{ role: "user", content: `${ids.system}\n\n${ids.user}` }]);
  }
  const parts = rendered.split(new RegExp(`(${ids.system}|${ids.user})`));
  const bosString = model.tokens.bosString;
  const prependBos = model.tokens.shouldPrependBosToken && !(bosString && rendered.startsWith(bosString));
  return {
    kind: "gguf",
    render: (system, user) =>
      LlamaText([
        ...(prependBos ? [new SpecialToken("BOS")] : []),
        ...parts.map((part) => {
          if (part === ids.system) return system;
          if (part === ids.user) return user;
          return new SpecialTokensText(part);
        }),
      ]),
    letterPrefix: "",
  };
}

export function chooseTemplate(model: LlamaModel, mode: "auto" | "fallback"): PromptTemplate {
  const template = (model.fileInfo.metadata.tokenizer as { chat_template?: string }).chat_template;
  if (mode === "fallback" || !template) return fallbackTemplate;
  try {
    return ggufTemplate(template, model);
  } catch (error) {
    throw new Error(
      `the GGUF's chat template cannot be rendered (${(error as Error).message}); ` +
        "set ADAPTER_PROMPT_TEMPLATE=fallback to use the adapter's plain-text prompt",
    );
  }
}

/** Token ids of one decision prompt, split where shared scoring branches: after the state, and before the tail. */
export type DecisionPrompt = {
  /** System text, template head and the state: equal for every decision over the same state. */
  prefix: Token[];
  /** Question and options. */
  body: Token[];
  /** The constant end (instruction, template turn switch) after which the answer letter comes. */
  tail: Token[];
  /** Up to 26 options: each option's letter token, read at the tail's last position. */
  letterTokens: Token[];
  /** More than 26 options: each option's two-letter code as tokens after the tail (`letterTokens` is empty). */
  codeTokens: Token[][] | null;
  sha256: string;
};

const STATE_END = `\u0000state-end-${randomBytes(8).toString("hex")}\u0000`;
const BODY_END = `\u0000body-end-${randomBytes(8).toString("hex")}\u0000`;

function userText(state: string, question: string, options: Decision["options"]): string {
  const codes = optionCodes(options.length);
  const lines = options.map((option, index) => {
    const label = `${codes[index]}. ${option.id}`;
    return option.description ? `${label}: ${option.description}` : label;
  });
  return `State:\n${state}${STATE_END}\n\nQuestion: ${question}\n\nOptions:\n${lines.join("\n")}${BODY_END}\n\n${tailInstruction(options.length)}`;
}

/** Splits rendered text at a marker that lies inside one plain-text value (user text is never special text). */
function splitAt(text: LlamaText, marker: string): [LlamaText, LlamaText] {
  const values = text.values;
  for (const [index, value] of values.entries()) {
    if (typeof value !== "string") continue;
    const at = value.indexOf(marker);
    if (at < 0) continue;
    return [
      LlamaText([...values.slice(0, index), value.slice(0, at)]),
      LlamaText([value.slice(at + marker.length), ...values.slice(index + 1)]),
    ];
  }
  throw new Error("the chat template dropped the user message; the prompt cannot be split at the state");
}

export class DecisionPromptBuilder {
  readonly template: PromptTemplate;
  private readonly model: LlamaModel;
  private cachedTail: { key: string; tail: Token[]; letters: Token[] } | null = null;
  private cachedCodes: { key: string; tail: Token[]; codes: Token[][] } | null = null;

  constructor(model: LlamaModel, template: PromptTemplate) {
    this.model = model;
    this.template = template;
  }

  build(decision: Decision): DecisionPrompt {
    const rendered = this.template.render(
      SYSTEM_PROMPT,
      userText(renderState(decision.state), decision.question, decision.options),
    );
    const [prefixText, rest] = splitAt(rendered, STATE_END);
    const [bodyText, tailText] = splitAt(rest, BODY_END);
    const tokenizer = this.model.tokenizer;
    const prefix = prefixText.tokenize(tokenizer);
    const body = bodyText.tokenize(tokenizer, "trimLeadingSpace");
    const count = decision.options.length;
    const { tail, letterTokens, codeTokens } =
      count <= SINGLE_LETTER_LIMIT
        ? { ...this.tailTokens(tailText), codeTokens: null }
        : { ...this.tailCodes(tailText, count), letterTokens: [] };
    const all = [...prefix, ...body, ...tail];
    const sha256 = createHash("sha256").update(this.model.detokenize(all, true)).digest("hex");
    return { prefix, body, tail, letterTokens: letterTokens.slice(0, count), codeTokens, sha256 };
  }

  /** The two-letter-code tail (more than 26 options) and the codes' tokens after it, resolved once per count. */
  private tailCodes(tailText: LlamaText, count: number): { tail: Token[]; codeTokens: Token[][] } {
    const key = `${count}:${JSON.stringify(tailText.toJSON())}`;
    if (this.cachedCodes?.key !== key) {
      const tail = tailText.tokenize(this.model.tokenizer, "trimLeadingSpace");
      const codes = codeTokensAfter(this.model, tailText, tail, this.template.letterPrefix, count);
      this.cachedCodes = { key, tail, codes };
    }
    return { tail: this.cachedCodes.tail, codeTokens: this.cachedCodes.codes };
  }

  /** The tail is the same text for every decision: tokenized, and its letters resolved, once. */
  private tailTokens(tailText: LlamaText): { tail: Token[]; letterTokens: Token[] } {
    const key = JSON.stringify(tailText.toJSON());
    if (this.cachedTail?.key === key) return { tail: this.cachedTail.tail, letterTokens: this.cachedTail.letters };
    const tokenizer = this.model.tokenizer;
    const tail = tailText.tokenize(tokenizer, "trimLeadingSpace");
    const letters = [...ANSWER_LETTERS.slice(0, SINGLE_LETTER_LIMIT)].map((letter) => {
      const extended = LlamaText([tailText, this.template.letterPrefix + letter]).tokenize(
        tokenizer,
        "trimLeadingSpace",
      );
      const sameStart = tail.every((token, index) => extended[index] === token);
      const letterToken = extended[tail.length];
      if (!sameStart || letterToken === undefined) {
        throw new Error(`answer letter ${letter} does not follow the prompt as a token of its own`);
      }
      return letterToken;
    });
    if (new Set(letters).size !== letters.length) throw new Error("answer letters do not map to distinct tokens");
    this.cachedTail = { key, tail, letters };
    return { tail, letterTokens: letters };
  }
}
