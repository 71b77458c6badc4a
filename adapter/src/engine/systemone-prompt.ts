import { createHash, randomBytes } from "node:crypto";
import { type LlamaModel, LlamaText, type Token } from "node-llama-cpp";
import type { SystemOneLabel } from "../contract/systemone.ts";
import { codeTokensAfter, optionCodes, SINGLE_LETTER_LIMIT } from "./multi-token.ts";
import type { PromptTemplate } from "./prompt.ts";

const SYSTEM_PROMPT =
  "You are a decision model. Read the state, answer the question by choosing exactly one of the listed options, " +
  "and reply with that option's label only.";
const tailInstruction = (count: number) =>
  count <= SINGLE_LETTER_LIMIT
    ? "Reply with the letter of one option."
    : "Reply with the two-letter code of one option.";

/** One question's prompt, split where scoring branches: the state prefix is equal for every question of a request. */
export type QuestionPrompt = {
  /** System text, template head and the state. */
  prefix: Token[];
  /** Question, options, instruction and template turn switch, up to where the label comes. */
  suffix: Token[];
  /** Tokens of each option's label, in context after the suffix, in presentation order. */
  codes: Token[][];
  sha256: string;
};

const STATE_END = `\u0000state-end-${randomBytes(8).toString("hex")}\u0000`;

function userText(state: string, instructions: string, labels: readonly SystemOneLabel[]): string {
  const codes = optionCodes(labels.length);
  const lines = labels.map((label, index) => {
    const head = `${codes[index]}. ${label.key}`;
    return label.description ? `${head}: ${label.description}` : head;
  });
  return `State:\n${state}${STATE_END}\n\nQuestion: ${instructions}\n\nOptions:\n${lines.join("\n")}\n\n${tailInstruction(labels.length)}`;
}

function splitAtState(text: LlamaText): [LlamaText, LlamaText] {
  const values = text.values;
  for (const [index, value] of values.entries()) {
    if (typeof value !== "string") continue;
    const at = value.indexOf(STATE_END);
    if (at < 0) continue;
    return [
      LlamaText([...values.slice(0, index), value.slice(0, at)]),
      LlamaText([value.slice(at + STATE_END.length), ...values.slice(index + 1)]),
    ];
  }
  throw new Error("the chat template dropped the user message; the prompt cannot be split at the state");
}

/**
 * Builds systemone question prompts on the adapter's prompt template (the GGUF chat template with thinking off,
 * or the documented fallback). Each label's tokens are found in context: the suffix is tokenized with and without
 * the label, and the label is what the longer tokenization adds; a suffix that changes when a label follows it
 * is refused, since the model would then be scored on tokens it never reads.
 */
export class SystemOnePromptBuilder {
  private readonly codeCache = new Map<string, Token[][]>();

  constructor(
    private readonly model: LlamaModel,
    private readonly template: PromptTemplate,
  ) {}

  build(state: string, instructions: string, labels: readonly SystemOneLabel[]): QuestionPrompt {
    const rendered = this.template.render(SYSTEM_PROMPT, userText(state, instructions, labels));
    const [prefixText, suffixText] = splitAtState(rendered);
    const tokenizer = this.model.tokenizer;
    const prefix = prefixText.tokenize(tokenizer);
    const suffix = suffixText.tokenize(tokenizer, "trimLeadingSpace");
    const codes = this.codeTokens(suffixText, suffix, labels.length);
    const sha256 = createHash("sha256")
      .update(this.model.detokenize([...prefix, ...suffix], true))
      .digest("hex");
    return { prefix, suffix, codes, sha256 };
  }

  /** Label tokens depend only on the suffix's last characters (the constant template tail) and the label count. */
  private codeTokens(suffixText: LlamaText, suffix: readonly Token[], count: number): Token[][] {
    const tail = suffix.slice(-8);
    const key = `${count}:${tail.join(",")}`;
    const cached = this.codeCache.get(key);
    if (cached) return cached;
    const codes = codeTokensAfter(this.model, suffixText, suffix, this.template.letterPrefix, count);
    this.codeCache.set(key, codes);
    return codes;
  }
}
