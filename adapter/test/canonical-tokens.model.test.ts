import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Template } from "@huggingface/jinja";
import { getLlama, type Llama, type LlamaModel, type Token } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Decision, renderState } from "../src/contract/decision.ts";
import { chooseTemplate, DecisionPromptBuilder } from "../src/engine/prompt.ts";
import { SystemOnePromptBuilder } from "../src/engine/systemone-prompt.ts";
import { sharedPath } from "./support/adapter-harness.ts";
import { MODEL_KINDS, modelSpec, writeVocabularyOnly } from "./support/llama-model.ts";

/**
 * Canonical prompt tokens (decision-prompt-v2): for all 231 JevBench decisions, on every generated vocabulary
 * (SentencePiece-style and byte-level BPE) and on stories260K, the ids the model reads are the whole-text
 * tokenization of the rendered template, exactly as llama.cpp tokenizes a text prompt: the text rendered here
 * independently (the chat template through Jinja, or the documented fallback), tokenized in one piece with
 * special tokens parsed and BOS first when the vocabulary adds one. The state prefix is a prefix of those ids
 * that other questions on the same state share, each label follows in context, and `prompt_sha256` hashes the
 * text. (Version 1 tokenized prefix, body and tail apart and failed this for every prompt on these vocabularies.)
 */

const JEVBENCH = path.resolve(import.meta.dirname, "../../server/evaluate/samples/jevbench.jsonl");
const STORIES = sharedPath("fixtures/models/stories260K.gguf");
const SYSTEM_PROMPT =
  "You are a decision model. Read the state, answer the question by choosing exactly one of the listed options, " +
  "and reply with that option's letter only.";

const decisions: Decision[] = readFileSync(JEVBENCH, "utf8")
  .split("\n")
  .filter((line) => line.trim())
  .map((line) => {
    const row = JSON.parse(line) as Decision;
    return { id: row.id, state: row.state, question: row.question, options: row.options };
  });

function userText(decision: Decision): string {
  const options = decision.options.map(
    (option, index) => `${String.fromCharCode(65 + index)}. ${option.id}: ${option.description}`,
  );
  return `State:\n${renderState(decision.state)}\n\nQuestion: ${decision.question}\n\nOptions:\n${options.join("\n")}\n\nReply with the letter of one option.`;
}

/** The prompt text as a client of llama-server would render it. */
function renderedText(model: LlamaModel, decision: Decision, fallback: boolean): string {
  const source = (model.fileInfo.metadata.tokenizer as { chat_template?: string }).chat_template;
  if (fallback || !source) return `${SYSTEM_PROMPT}\n\n${userText(decision)}\n\nAnswer:\n`;
  return new Template(source).render({
    messages: [
      { role: "system", content: SYSTEM_PROMPT },
      { role: "user", content: userText(decision) },
    ],
    add_generation_prompt: true,
    enable_thinking: false,
    bos_token: model.tokens.bosString ?? "",
    eos_token: model.tokens.eosString ?? "",
  });
}

/** llama.cpp's tokenization of a text prompt: special tokens parsed, BOS first when the vocabulary adds one. */
function wholeText(model: LlamaModel, text: string): Token[] {
  const bos = model.tokens.shouldPrependBosToken && !text.startsWith(model.tokens.bosString ?? "\u0000");
  return [...(bos ? [model.tokens.bos!] : []), ...model.tokenize(text, true)];
}

const startsWith = (tokens: readonly Token[], head: readonly Token[]) =>
  head.length <= tokens.length && head.every((token, index) => tokens[index] === token);

type Subject = { name: string; file: () => string; fallback: boolean };

let directory: string;
let llama: Llama;
const subjects: Subject[] = [
  ...MODEL_KINDS.map((kind) => ({
    name: kind,
    fallback: false,
    file: () => {
      const file = path.join(directory, `${kind}.gguf`);
      writeVocabularyOnly(modelSpec(kind), file);
      return file;
    },
  })),
  {
    name: "tiny, fallback template",
    fallback: true,
    file: () => {
      const file = path.join(directory, "tiny-fallback.gguf");
      writeVocabularyOnly(modelSpec("tiny"), file);
      return file;
    },
  },
  ...(STORIES ? [{ name: "stories260K", fallback: false, file: () => STORIES }] : []),
];
if (!STORIES)
  console.warn("canonical tokens: stories260K skipped, ../shared/fixtures/models is not beside this checkout");

beforeAll(async () => {
  directory = mkdtempSync(path.join(os.tmpdir(), "canonical-tokens-"));
  llama = await getLlama({ build: "never", gpu: false });
});
afterAll(async () => {
  await llama?.dispose();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

describe.each(subjects)("canonical tokens: $name", (subject) => {
  let model: LlamaModel;
  beforeAll(async () => {
    model = await llama.loadModel({ modelPath: subject.file(), vocabOnly: true });
  });
  afterAll(() => model?.dispose());

  it("reads exactly the whole-text tokenization of the rendered template, for all 231 JevBench decisions", () => {
    expect(decisions).toHaveLength(231);
    const builder = new DecisionPromptBuilder(model, chooseTemplate(model, subject.fallback ? "fallback" : "auto"));
    let splitAtStateEnd = 0;
    for (const decision of decisions) {
      const prompt = builder.build(decision);
      const text = renderedText(model, decision, subject.fallback);
      expect(prompt.text, decision.id).toBe(text);
      expect(prompt.tokens, decision.id).toEqual(wholeText(model, text));
      expect(prompt.sha256).toBe(createHash("sha256").update(text).digest("hex"));

      // Each answer letter follows the prompt as one token of its own, in context.
      for (const [index, letter] of prompt.letterTokens.entries()) {
        expect(wholeText(model, text + String.fromCharCode(65 + index)), decision.id).toEqual([
          ...prompt.tokens,
          letter,
        ]);
      }

      // The state prefix is shared: another question on the same state starts with the same tokens.
      const prefix = prompt.tokens.slice(0, prompt.prefixLength);
      const stateEnd = text.indexOf(`${renderState(decision.state)}\n\nQuestion:`) + renderState(decision.state).length;
      expect(prompt.prefixLength, decision.id).toBeGreaterThan(wholeText(model, text.slice(0, stateEnd / 2)).length);
      const other = builder.build({ ...decision, question: "Another question?" });
      expect(startsWith(other.tokens, prefix), decision.id).toBe(true);
      if (prompt.prefixLength === wholeText(model, text.slice(0, stateEnd)).length) splitAtStateEnd++;
    }
    console.log(`${subject.name}: the state's end was a stable split in ${splitAtStateEnd}/231 prompts`);
  });

  it("tokenizes systemone prompts the same way", () => {
    const builder = new SystemOnePromptBuilder(model, chooseTemplate(model, subject.fallback ? "fallback" : "auto"));
    for (const decision of decisions.slice(0, 40)) {
      const labels = decision.options.map((option) => ({ key: option.id, description: option.description }));
      const prompt = builder.build(renderState(decision.state), decision.question, labels);
      expect(prompt.tokens).toEqual(wholeText(model, prompt.text));
      for (const [index, code] of prompt.codes.entries()) {
        expect(wholeText(model, prompt.text + String.fromCharCode(65 + index))).toEqual([...prompt.tokens, ...code]);
      }
    }
  });
});
