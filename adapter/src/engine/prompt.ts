import { randomBytes } from "node:crypto";
import { Template } from "@huggingface/jinja";
import type { LlamaModel, Token } from "node-llama-cpp";
import { type Decision, renderState } from "../contract/decision.ts";
import { CanonicalPromptBuilder, type PromptTemplate } from "./canonical-prompt.ts";
import { optionCodes, SINGLE_LETTER_LIMIT } from "./multi-token.ts";

export type { PromptTemplate } from "./canonical-prompt.ts";

/** v2: the rendered text tokenized as a whole (v1 tokenized prefix, body and tail apart and joined them). */
export const PROMPT_VERSION = "decision-prompt-v2";

const SYSTEM_PROMPT =
  "You are a decision model. Read the state, answer the question by choosing exactly one of the listed options, " +
  "and reply with that option's letter only.";
const tailInstruction = (count: number) =>
  count <= SINGLE_LETTER_LIMIT
    ? "Reply with the letter of one option."
    : "Reply with the two-letter code of one option.";

/**
 * Used when the GGUF has no `tokenizer.chat_template` (or ADAPTER_PROMPT_TEMPLATE=fallback): the system text, the
 * user text, then `Answer:` and a line break, after which the letter comes; BOS first when the vocabulary adds one,
 * exactly as llama.cpp tokenizes that text (a SentencePiece vocabulary then also puts its leading space before the
 * first word). The line break (rather than a space) keeps the letter a token of its own even in small SentencePiece
 * vocabularies without "▁A" pieces.
 */
export function fallbackTemplate(model: LlamaModel): PromptTemplate {
  return {
    kind: "fallback",
    render: (system, user) => ({
      text: `${system}\n\n${user}\n\nAnswer:\n`,
      bos: model.tokens.bos !== null && model.tokens.shouldPrependBosToken,
    }),
  };
}

/**
 * The GGUF's own Jinja chat template, rendered as `apply_chat_template(messages, add_generation_prompt=True,
 * enable_thinking=False)` would (SemIf's rendering): Qwen3-style templates then close an empty think block, so the
 * very next token is the answer. BOS is put first when the vocabulary adds one and the template did not already
 * render it. Templates that reject a system message get the system text at the start of the user message.
 */
export function ggufTemplate(source: string, model: LlamaModel): PromptTemplate {
  const template = new Template(source);
  const renderWith = (messages: Array<{ role: string; content: string }>) =>
    template.render({
      messages,
      add_generation_prompt: true,
      enable_thinking: false,
      bos_token: model.tokens.bosString ?? "",
      eos_token: model.tokens.eosString ?? "",
    });
  const probe = `\u0000system-${randomBytes(8).toString("hex")}\u0000`;
  let systemRole = true;
  try {
    systemRole = renderWith([
      { role: "system", content: probe },
      { role: "user", content: "x" },
    ]).includes(probe);
  } catch {
    systemRole = false;
  }
  const bosString = model.tokens.bosString;
  const addsBos = model.tokens.bos !== null && model.tokens.shouldPrependBosToken;
  return {
    kind: "gguf",
    render: (system, user) => {
      const text = systemRole
        ? renderWith([
            { role: "system", content: system },
            { role: "user", content: user },
          ])
        : renderWith([{ role: "user", content: `${system}\n\n${user}` }]);
      return { text, bos: addsBos && !(bosString && text.startsWith(bosString)) };
    },
  };
}

export function chooseTemplate(model: LlamaModel, mode: "auto" | "fallback"): PromptTemplate {
  const template = (model.fileInfo.metadata.tokenizer as { chat_template?: string }).chat_template;
  if (mode === "fallback" || !template) return fallbackTemplate(model);
  try {
    return ggufTemplate(template, model);
  } catch (error) {
    throw new Error(
      `the GGUF's chat template cannot be rendered (${(error as Error).message}); ` +
        "set ADAPTER_PROMPT_TEMPLATE=fallback to use the adapter's plain-text prompt",
    );
  }
}

/** One decision prompt: its exact text and whole-text tokens, split after the state for shared scoring. */
export type DecisionPrompt = {
  text: string;
  tokens: Token[];
  /** `tokens[0..prefixLength)`: template head, system text and the state, equal for every decision on that state. */
  prefixLength: number;
  /** Up to 26 options: each option's letter token, read after the prompt's last token. */
  letterTokens: Token[];
  /** More than 26 options: each option's two-letter code as tokens after the prompt (`letterTokens` is empty). */
  codeTokens: Token[][] | null;
  sha256: string;
};

function optionLines(options: Decision["options"]): string {
  const codes = optionCodes(options.length);
  return options
    .map((option, index) => {
      const label = `${codes[index]}. ${option.id}`;
      return option.description ? `${label}: ${option.description}` : label;
    })
    .join("\n");
}

export class DecisionPromptBuilder {
  private readonly canonical: CanonicalPromptBuilder;

  constructor(model: LlamaModel, template: PromptTemplate) {
    this.canonical = new CanonicalPromptBuilder(model, template, SYSTEM_PROMPT);
  }

  get template(): PromptTemplate {
    return this.canonical.template;
  }

  build(decision: Decision): DecisionPrompt {
    const count = decision.options.length;
    const prompt = this.canonical.build(
      `State:\n${renderState(decision.state)}`,
      `\n\nQuestion: ${decision.question}\n\nOptions:\n${optionLines(decision.options)}\n\n${tailInstruction(count)}`,
      optionCodes(count),
    );
    const { text, tokens, prefixLength, sha256 } = prompt;
    if (count > SINGLE_LETTER_LIMIT)
      return { text, tokens, prefixLength, sha256, letterTokens: [], codeTokens: prompt.labels };
    const letterTokens = prompt.labels.map((label) => label[0]!);
    if (new Set(letterTokens).size !== letterTokens.length)
      throw new Error("answer letters do not map to distinct tokens");
    return { text, tokens, prefixLength, sha256, letterTokens, codeTokens: null };
  }
}
