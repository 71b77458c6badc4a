import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  decision,
  type GeneratedModel,
  generateModel,
  postJson,
  startTestAdapter,
  type TestAdapter,
} from "./support/adapter-harness.ts";
import { closedFormLogits } from "./support/llama-model.ts";
import { byteToken } from "./support/spm-vocab.ts";

type Result = {
  id: string;
  probabilities: number[];
  option_logits: number[];
  answer_token_ids: number[];
  allowed_token_mass: number;
  full_vocab_argmax_id: number;
};

const LETTERS = "ABCDEFGHIJKLMNOP";
const options = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `option-${i}`, description: `Choice ${i}` }));

/** Float64 reference: softmax over the letters' logits at temperature T, from the model's own weights. */
function expected(model: GeneratedModel, optionCount: number, temperature: number) {
  // Both templates end the prompt with a line break ("</think>\n\n" or "Answer:\n"), the byte token 0x0A.
  const logits = closedFormLogits(model.spec, byteToken(0x0a));
  const letterIds = [...LETTERS.slice(0, optionCount)].map((letter) => model.spec.vocabulary.pieceId(letter)!);
  const letterLogits = letterIds.map((id) => logits[id]!);
  const max = Math.max(...letterLogits);
  const weights = letterLogits.map((logit) => Math.exp((logit - max) / temperature));
  const total = weights.reduce((a, b) => a + b, 0);
  const logZ = Math.log(logits.reduce((sum, logit) => sum + Math.exp(logit - max), 0)) + max;
  return {
    letterIds,
    probabilities: weights.map((weight) => weight / total),
    allowedMass: letterLogits.reduce((sum, logit) => sum + Math.exp(logit - logZ), 0),
    argmax: logits.indexOf(Math.max(...logits)),
  };
}

describe("closed-form model (zero attention and feed-forward weights)", () => {
  let model: GeneratedModel;
  let chatTemplate: TestAdapter;
  let fallbackHot: TestAdapter;

  beforeAll(async () => {
    model = generateModel("closed-form");
    chatTemplate = await startTestAdapter(model.file, { SEMIF_MAX_TOKENS: "1024" });
    fallbackHot = await startTestAdapter(model.file, {
      SEMIF_MAX_TOKENS: "1024",
      ADAPTER_PROMPT_TEMPLATE: "fallback",
      SEMIF_TEMPERATURE: "2",
    });
  });

  afterAll(async () => {
    await chatTemplate?.close();
    await fallbackHot?.close();
    model?.cleanup();
  });

  it.each([2, 5, 16])("matches the float64 probabilities within 1e-3 with %i options", async (count) => {
    const response = await postJson(chatTemplate.url, { decision: decision({ options: options(count) }) });
    expect(response.status).toBe(200);
    const result = (response.body as { result: Result }).result;
    const reference = expected(model, count, 1);
    expect(result.answer_token_ids).toEqual(reference.letterIds);
    expect(result.probabilities).toHaveLength(count);
    for (const [index, probability] of result.probabilities.entries()) {
      expect(Math.abs(probability - reference.probabilities[index]!)).toBeLessThan(1e-3);
    }
    expect(Math.abs(result.allowed_token_mass - reference.allowedMass)).toBeLessThan(1e-3);
    expect(result.full_vocab_argmax_id).toBe(reference.argmax);
  });

  it("applies SEMIF_TEMPERATURE and renders the fallback template when asked to", async () => {
    const response = await postJson(fallbackHot.url, { decision: decision({ options: options(4) }) });
    const result = (response.body as { result: Result & { model: { chat_template: string } } }).result;
    expect(result.model.chat_template).toBe("fallback");
    const reference = expected(model, 4, 2);
    for (const [index, probability] of result.probabilities.entries()) {
      expect(Math.abs(probability - reference.probabilities[index]!)).toBeLessThan(1e-3);
    }
  });
});

describe("shared state (random-weight model, attention active)", () => {
  let model: GeneratedModel;
  let adapter: TestAdapter;
  const state = { ticket: "Customer cannot export a PDF on the trial plan.", plan: "trial", days: 3 };
  const questions = ["Is the export allowed?", "Should support escalate?", "Is this a billing issue?", "Reply now?"];
  const shared = questions.map((question, index) =>
    decision({ id: `q${index}`, state, question, options: options(3) }),
  );

  beforeAll(async () => {
    model = generateModel("tiny");
    adapter = await startTestAdapter(model.file, { SEMIF_MAX_TOKENS: "1024", SEMIF_MAX_REQUEST_TOKENS: "2048" });
  });

  afterAll(async () => {
    await adapter?.close();
    model?.cleanup();
  });

  it("gives the same probabilities as scoring each decision separately (|dp| < 1e-4)", async () => {
    const together = await postJson(adapter.url, { decisions: shared });
    expect(together.status).toBe(200);
    const body = together.body as { results: Result[]; timing: { batch_size: number; prefix_tokens: number } };
    expect(body.timing.batch_size).toBe(4);
    expect(body.timing.prefix_tokens).toBeGreaterThan(10);
    for (const [index, item] of shared.entries()) {
      // Another state in between, so the separate request evaluates its prefix from scratch.
      await postJson(adapter.url, { decision: decision({ state: `unrelated ${index}` }) });
      const alone = await postJson(adapter.url, { decision: item });
      const separate = (alone.body as { result: Result }).result;
      const together = body.results[index]!;
      expect(together.id).toBe(item.id);
      for (const [option, probability] of separate.probabilities.entries()) {
        expect(Math.abs(probability - together.probabilities[option]!)).toBeLessThan(1e-4);
      }
    }
  });

  it("reuses the evaluated state of the previous request and reports it", async () => {
    await postJson(adapter.url, { decision: shared[0] });
    const again = await postJson(adapter.url, { decision: shared[1] });
    expect((again.body as { timing: { prefix_reused: boolean } }).timing.prefix_reused).toBe(true);
  });

  it("splits SEMIF_MAX_REQUEST_TOKENS across shared decisions and refuses prompts over the share", async () => {
    const longState = "word ".repeat(200);
    const single = await postJson(adapter.url, { decision: decision({ state: longState }) });
    expect(single.status).toBe(200);
    const many = Array.from({ length: 8 }, (_, i) => decision({ id: `d${i}`, state: longState }));
    const response = await postJson(adapter.url, { decisions: many });
    expect(response.status).toBe(400);
    expect((response.body as { error: string }).error).toMatch(
      /^decisions exceeds the request token budget: decisions\[0\] has \d+ prompt tokens, at most 256/,
    );
  });
});
