import type { LlamaModel, Token } from "node-llama-cpp";
import type { SystemOneLabel } from "../contract/systemone.ts";
import { CanonicalPromptBuilder, type PromptTemplate } from "./canonical-prompt.ts";
import { optionCodes, SINGLE_LETTER_LIMIT } from "./multi-token.ts";

const SYSTEM_PROMPT =
  "You are a decision model. Read the state, answer the question by choosing exactly one of the listed options, " +
  "and reply with that option's label only.";
const tailInstruction = (count: number) =>
  count <= SINGLE_LETTER_LIMIT
    ? "Reply with the letter of one option."
    : "Reply with the two-letter code of one option.";

/** One question's prompt: exact text and whole-text tokens, split after the state (equal for every question). */
export type QuestionPrompt = {
  text: string;
  tokens: Token[];
  /** `tokens[0..prefixLength)`: system text, template head and the state. */
  prefixLength: number;
  /** Tokens of each option's label, in context after the prompt, in presentation order. */
  codes: Token[][];
  sha256: string;
};

function optionLines(labels: readonly SystemOneLabel[]): string {
  const codes = optionCodes(labels.length);
  return labels
    .map((label, index) => {
      const head = `${codes[index]}. ${label.key}`;
      return label.description ? `${head}: ${label.description}` : head;
    })
    .join("\n");
}

/**
 * Builds systemone question prompts on the adapter's prompt template (the GGUF chat template with thinking off,
 * or the documented fallback), tokenized as a whole like decision prompts (`canonical-prompt.ts`).
 */
export class SystemOnePromptBuilder {
  private readonly canonical: CanonicalPromptBuilder;

  constructor(model: LlamaModel, template: PromptTemplate) {
    this.canonical = new CanonicalPromptBuilder(model, template, SYSTEM_PROMPT);
  }

  /** A question without instructions (a System One choice or score may have none) is asked by its options alone. */
  build(state: string, instructions: string | null, labels: readonly SystemOneLabel[]): QuestionPrompt {
    const question = instructions === null ? "" : `\n\nQuestion: ${instructions}`;
    const prompt = this.canonical.build(
      `State:\n${state}`,
      `${question}\n\nOptions:\n${optionLines(labels)}\n\n${tailInstruction(labels.length)}`,
      optionCodes(labels.length),
    );
    if (new Set(prompt.labels.map((code) => code.join(","))).size !== prompt.labels.length) {
      throw new Error("option labels do not map to distinct tokens");
    }
    const { text, tokens, prefixLength, sha256 } = prompt;
    return { text, tokens, prefixLength, codes: prompt.labels, sha256 };
  }
}
