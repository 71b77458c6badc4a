import {
  getLlama,
  type Llama,
  type LlamaContext,
  type LlamaContextSequence,
  type LlamaModel,
  type Token,
} from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Decision } from "../src/contract/decision.ts";
import { chooseTemplate, DecisionPromptBuilder } from "../src/engine/prompt.ts";
import {
  decision,
  type GeneratedModel,
  generateModel,
  postJson,
  startTestAdapter,
  type TestAdapter,
} from "./support/adapter-harness.ts";

/**
 * The decision API beyond 26 options: options get two-letter codes, each scored by the summed full-vocabulary
 * log-probability of its tokens (the /v1/systemone mechanism). Checked against an independent evaluation of
 * every code's full token sequence with node-llama-cpp's own probabilities.
 */

type Result = {
  id: string;
  option_ids: string[];
  probabilities: number[];
  option_logits: number[];
  answer_token_ids: number[];
  answer_code_token_ids?: number[][];
  allowed_token_mass: number;
  full_vocab_argmax_id: number;
  prompt_sha256: string;
  permutations?: number;
  spread?: number[];
};

const options = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `route-${i}`, description: `Route number ${i}` }));
const large = decision({ id: "large", question: "Which route?", options: options(40) }) as Decision;
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

let model: GeneratedModel;
let adapter: TestAdapter;

beforeAll(async () => {
  model = generateModel("tiny");
  adapter = await startTestAdapter(model.file, { ADAPTER_THREADS: "1", SEMIF_MAX_TOKENS: "4096" });
});
afterAll(async () => {
  await adapter?.close();
  model?.cleanup();
});

const decide = async (payload: unknown) => {
  const response = await postJson(adapter.url, payload);
  expect(response.status, response.text).toBe(200);
  return response.body as { result: Result; results: Result[] };
};

describe("a 40-option decision", () => {
  let llama: Llama;
  let loaded: LlamaModel;
  let context: LlamaContext;
  let sequence: LlamaContextSequence;

  beforeAll(async () => {
    llama = await getLlama({ build: "never", gpu: false });
    loaded = await llama.loadModel({ modelPath: model.file, gpuLayers: 0 });
    context = await loaded.createContext({ contextSize: 4096, threads: 1 });
    sequence = context.getSequence();
  });
  afterAll(async () => {
    await context?.dispose();
    await loaded?.dispose();
    await llama?.dispose();
  });

  /** log P(code | prompt) from full-vocabulary distributions, a fresh evaluation of the whole sequence. */
  async function independentLogProbability(prompt: readonly Token[], code: readonly Token[]): Promise<number> {
    await sequence.clearHistory();
    const input = [...prompt, ...code];
    const output = await sequence.controlledEvaluate(
      input.map((token, index) =>
        index >= prompt.length - 1 && index < input.length - 1
          ? ([token, { generateNext: { probabilities: true } }] as const)
          : token,
      ),
    );
    let total = 0;
    for (const [offset, token] of code.entries()) {
      total += Math.log(output[prompt.length - 1 + offset]!.next!.probabilities!.get(token)!);
    }
    return total;
  }

  it("is answered over exactly its ids, with probabilities equal to an independent evaluation", async () => {
    const { result } = await decide({ decision: large });
    expect(result.option_ids).toEqual(large.options.map((option) => option.id));
    expect(result.probabilities).toHaveLength(40);
    expect(sum(result.probabilities)).toBeCloseTo(1, 9);

    const prompt = new DecisionPromptBuilder(loaded, chooseTemplate(loaded, "auto")).build(large);
    expect(result.prompt_sha256).toBe(prompt.sha256);
    expect(prompt.codeTokens).toHaveLength(40);
    expect(prompt.codeTokens!.some((code) => code.length > 1)).toBe(true);
    expect(result.answer_token_ids).toEqual([]);
    expect(result.answer_code_token_ids).toEqual(prompt.codeTokens);

    const full = prompt.tokens;
    const expected: number[] = [];
    for (const code of prompt.codeTokens!) expected.push(await independentLogProbability(full, code));
    // Float32 evaluation in different batch splits: agree to about 1e-4 relative, 3e-4 allowed (a missing or
    // extra token's log-probability would be off by whole units).
    const tolerance = (s: number) => 3e-4 * Math.abs(s) + 1e-4;
    for (const [index, logProbability] of expected.entries()) {
      expect(Math.abs(result.option_logits[index]! - logProbability), `option ${index}`).toBeLessThan(
        tolerance(logProbability),
      );
    }
    // softmax(S) over the independent log-probabilities; each S_k agrees within the bound above, so each
    // log-probability of the answer agrees within twice the largest bound.
    const max = Math.max(...expected);
    const logTotal = Math.log(sum(expected.map((s) => Math.exp(s - max)))) + max;
    const bound = 2 * Math.max(...expected.map(tolerance));
    for (const [index, s] of expected.entries()) {
      expect(Math.abs(Math.log(result.probabilities[index]!) - (s - logTotal)), `option ${index}`).toBeLessThan(bound);
    }
    expect(result.allowed_token_mass).toBeCloseTo(sum(expected.map(Math.exp)), 4);
    expect(result.allowed_token_mass).toBeLessThanOrEqual(1 + 1e-9);
  });
});

describe("large option sets with other decision features", () => {
  it("shares one state between a 3-option and a 40-option decision, each scored as if alone", async () => {
    const small = decision({ id: "small", options: options(3) });
    const alone = await decide({ decision: large });
    const shared = await decide({ decisions: [small, large] });
    const [first, second] = shared.results;
    expect(first!.option_ids).toHaveLength(3);
    expect(first!.answer_token_ids).toHaveLength(3);
    expect(first!.answer_code_token_ids).toBeUndefined();
    expect(sum(first!.probabilities)).toBeCloseTo(1, 9);
    expect(second!.option_ids).toEqual(alone.result.option_ids);
    for (const [index, p] of second!.probabilities.entries()) {
      expect(Math.abs(p - alone.result.probabilities[index]!)).toBeLessThan(1e-4);
    }
  });

  it("debiases a 40-option decision over cyclic orders", async () => {
    const { result } = await decide({ decision: large, permutations: 3 });
    expect(result.permutations).toBe(3);
    expect(result.spread).toHaveLength(40);
    expect(result.option_ids).toEqual(large.options.map((option) => option.id));
    expect(sum(result.probabilities)).toBeCloseTo(1, 9);
  });

  it("accepts 255 options and refuses 256 with the new limit", async () => {
    const short = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `${i}`, description: "" }));
    const most = await decide({ decision: decision({ options: short(255) }) });
    expect(most.result.probabilities).toHaveLength(255);
    expect(sum(most.result.probabilities)).toBeCloseTo(1, 9);
    const response = await postJson(adapter.url, { decision: decision({ options: short(256) }) });
    expect(response.status).toBe(400);
    expect((response.body as { error: string }).error).toBe("options must contain 2-255 entries: decision.options");
  });
});
