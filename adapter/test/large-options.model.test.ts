import { getLlama, type Llama, type LlamaContext, type LlamaModel, type Token } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scoreCodes } from "../src/engine/multi-token.ts";
import { chooseTemplate } from "../src/engine/prompt.ts";
import { SystemOnePromptBuilder } from "../src/engine/systemone-prompt.ts";
import {
  type GeneratedModel,
  generateModel,
  postJson,
  startTestAdapter,
  type TestAdapter,
} from "./support/adapter-harness.ts";

/**
 * More than 16 options, up to systemone's 255: options get two-letter codes and each code is scored by the
 * summed log-probability of its tokens. Checked against an independent evaluation of every code's full token
 * sequence with node-llama-cpp's full-vocabulary probabilities.
 */

const criteria = (count: number) => Array.from({ length: count }, (_, i) => `route-${i}`);
/** System One choice criteria without descriptions: `{name: null}`. */
const undescribed = (keys: string[]) => Object.fromEntries(keys.map((key) => [key, null]));

let model: GeneratedModel;

beforeAll(() => {
  model = generateModel("tiny");
});
afterAll(() => model?.cleanup());

describe("systemone with 255 options over HTTP", () => {
  let adapter: TestAdapter;
  beforeAll(async () => {
    adapter = await startTestAdapter(model.file, { ADAPTER_THREADS: "1", SEMIF_MAX_TOKENS: "4096" });
  });
  afterAll(async () => adapter?.close());

  it("answers a 255-way choice with one probability per key, summing to 1", async () => {
    const keys = criteria(255);
    const response = await postJson(adapter.url, {
      model: "jev-latest",
      state: "A shipment must be routed.",
      questions: { route: { type: "choice", instructions: "Which route?", criteria: undescribed(keys) } },
    });
    expect(response.status).toBe(200);
    const answer = (response.body as { answers: { route: { choice: string; probabilities: Record<string, number> } } })
      .answers.route;
    expect(Object.keys(answer.probabilities)).toEqual(keys);
    const values = Object.values(answer.probabilities);
    expect(values.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    // A code far less likely than the best can round to 0 in float64 (log-probability gap > 745): still a probability.
    expect(values.every((p) => Number.isFinite(p) && p >= 0)).toBe(true);
    expect(answer.probabilities[answer.choice]).toBe(Math.max(...values));
  });

  it("refuses 256 options with 422", async () => {
    const response = await postJson(adapter.url, {
      model: "jev-latest",
      state: "s",
      questions: { route: { type: "choice", instructions: "Which route?", criteria: undescribed(criteria(256)) } },
    });
    expect(response.status).toBe(422);
    expect((response.body as { detail: { loc: unknown[]; msg: string }[] }).detail[0]).toMatchObject({
      loc: ["body", "questions", "route", "criteria"],
      msg: "must hold 2-255 choices",
    });
  });
});

describe("multi-token label scoring", () => {
  let llama: Llama;
  let loaded: LlamaModel;
  let context: LlamaContext;

  beforeAll(async () => {
    llama = await getLlama({ build: "never", gpu: false });
    loaded = await llama.loadModel({ modelPath: model.file, gpuLayers: 0 });
    context = await loaded.createContext({ contextSize: 4096, threads: 1, sequences: 2 });
  });
  afterAll(async () => {
    await context?.dispose();
    await loaded?.dispose();
    await llama?.dispose();
  });

  /** log P(code | prompt) from full-vocabulary distributions, one fresh evaluation of the whole sequence. */
  async function independentLogProbability(prompt: readonly Token[], code: readonly Token[]): Promise<number> {
    const sequence = context.getSequence();
    try {
      const input = [...prompt, ...code];
      const output = await sequence.controlledEvaluate(
        input.map((token, index) =>
          index >= prompt.length - 1 && index < input.length - 1
            ? ([token, { generateNext: { probabilities: true } }] as const)
            : token,
        ),
      );
      let sum = 0;
      for (const [offset, token] of code.entries()) {
        const probabilities = output[prompt.length - 1 + offset]!.next!.probabilities!;
        sum += Math.log(probabilities.get(token)!);
      }
      return sum;
    } finally {
      sequence.dispose();
    }
  }

  it("scores each two-letter code by the summed log-probability of its tokens", async () => {
    const builder = new SystemOnePromptBuilder(loaded, chooseTemplate(loaded, "auto"));
    const labels = criteria(60).map((key) => ({ key, description: null }));
    const prompt = builder.build("A shipment must be routed.", "Which route?", labels);
    const multiToken = prompt.codes.filter((code) => code.length > 1).length;
    expect(multiToken).toBeGreaterThan(0);

    const sequence = context.getSequence();
    const scored = await scoreCodes(sequence, prompt.tokens, prompt.codes, {
      temperature: 1,
      reusePrefix: false,
    });
    sequence.dispose();

    expect(scored.probabilities).toHaveLength(60);
    expect(scored.probabilities.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    const full = prompt.tokens;
    for (const index of [0, 1, 25, 26, 27, 59]) {
      const expected = await independentLogProbability(full, prompt.codes[index]!);
      // Float32 evaluation in different batch splits: agree to about 1e-4 relative, 3e-4 allowed as in the
      // decision API's test (a missing or extra token's log-probability would be off by whole units).
      expect(Math.abs(scored.logProbabilities[index]! - expected), `code ${index}`).toBeLessThan(
        3e-4 * Math.abs(expected) + 1e-4,
      );
    }
    const total = scored.logProbabilities.reduce((sum, s) => sum + Math.exp(s), 0);
    expect(scored.labelMass).toBeCloseTo(total, 12);
    expect(scored.labelMass).toBeLessThanOrEqual(1 + 1e-9);
  });
});
