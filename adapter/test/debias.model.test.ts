import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type GeneratedModel,
  generateModel,
  postJson,
  startTestAdapter,
  type TestAdapter,
} from "./support/adapter-harness.ts";

/**
 * Option-order debiasing (`permutations`). The closed-form GGUF's next-token distribution depends only on the
 * last prompt token, which is the same whatever the options say: it is a model that prefers positions and nothing
 * else, the extreme case of order bias. The tiny random model also reads the options' text.
 */

type ChoiceAnswer = { choice: string; probabilities: Record<string, number>; x_spread?: Record<string, number> };
type Answered = { answers: { pick: ChoiceAnswer }; x_timing: { permutations: number } };

const DESCRIPTIONS: Record<string, string> = {
  refund: "Return money already charged",
  cancel: "End the subscription",
  status: "Report delivery progress",
  other: "None of these",
};

const ask = async (adapter: TestAdapter, order: string[], permutations?: number) => {
  const response = await postJson(adapter.url, {
    model: "jev-latest",
    state: "Please return the duplicate charge on my card.",
    questions: {
      pick: {
        type: "choice",
        instructions: "Select the requested action.",
        criteria: Object.fromEntries(order.map((key) => [key, DESCRIPTIONS[key]!])),
      },
    },
    ...(permutations === undefined ? {} : { x_permutations: permutations }),
  });
  expect(response.status).toBe(200);
  return response.body as Answered;
};

const ORDER = ["refund", "cancel", "status", "other"];
const SHUFFLED = ["status", "refund", "other", "cancel"];
const ROTATED = ["status", "other", "refund", "cancel"];

function maxDifference(a: Record<string, number>, b: Record<string, number>): number {
  return Math.max(...Object.keys(a).map((key) => Math.abs(a[key]! - b[key]!)));
}

describe("a model that only prefers positions (closed-form GGUF)", () => {
  let model: GeneratedModel;
  let adapter: TestAdapter;
  beforeAll(async () => {
    model = generateModel("closed-form");
    adapter = await startTestAdapter(model.file, { ADAPTER_THREADS: "1" });
  });
  afterAll(async () => {
    await adapter?.close();
    model?.cleanup();
  });

  it("without debiasing, an option's probability follows the position it is sent in", async () => {
    const first = (await ask(adapter, ORDER)).answers.pick.probabilities;
    const second = (await ask(adapter, SHUFFLED)).answers.pick.probabilities;
    // Same probability per position in both orders...
    ORDER.forEach((key, position) => {
      expect(second[SHUFFLED[position]!]).toBeCloseTo(first[key]!, 6);
    });
    // ...so the same option gets different probabilities.
    expect(maxDifference(first, second)).toBeGreaterThan(1e-3);
  });

  it("with one order per position, the answer no longer depends on the order sent", async () => {
    const answers = [
      await ask(adapter, ORDER, 4),
      await ask(adapter, SHUFFLED, 4),
      await ask(adapter, [...ORDER].reverse(), 4),
    ];
    for (const answer of answers) {
      expect(answer.x_timing.permutations).toBe(4);
      for (const key of ORDER) expect(answer.answers.pick.probabilities[key]).toBeCloseTo(0.25, 6);
      expect(maxDifference(answer.answers.pick.probabilities, answers[0]!.answers.pick.probabilities)).toBeLessThan(
        1e-6,
      );
    }
  });

  it("debiases the decision API too: `permutations` averages the option orders of each decision", async () => {
    const decide = async (order: string[], extra: Record<string, unknown>) => {
      const response = await postJson(adapter.url, {
        decision: {
          id: "d1",
          state: "Please return the duplicate charge on my card.",
          question: "Select the requested action.",
          options: order.map((id) => ({ id, description: DESCRIPTIONS[id]! })),
        },
        ...extra,
      });
      expect(response.status).toBe(200);
      const result = (response.body as { result: { option_ids: string[]; probabilities: number[] } }).result;
      return Object.fromEntries(result.option_ids.map((id, i) => [id, result.probabilities[i]!]));
    };
    expect(maxDifference(await decide(ORDER, {}), await decide(SHUFFLED, {}))).toBeGreaterThan(1e-3);
    const debiased = [await decide(ORDER, { permutations: 4 }), await decide(SHUFFLED, { permutations: 4 })];
    expect(maxDifference(debiased[0]!, debiased[1]!)).toBeLessThan(1e-6);
    for (const key of ORDER) expect(debiased[0]![key]).toBeCloseTo(0.25, 6);

    const shared = await postJson(adapter.url, {
      decisions: [ORDER, SHUFFLED].map((order, i) => ({
        id: `d${i}`,
        state: "Please return the duplicate charge on my card.",
        question: "Select the requested action.",
        options: order.map((id) => ({ id, description: DESCRIPTIONS[id]! })),
      })),
      permutations: 4,
    });
    expect(shared.status).toBe(200);
    const results = (shared.body as { results: Array<{ probabilities: number[]; permutations: number }> }).results;
    for (const result of results) {
      expect(result.permutations).toBe(4);
      for (const p of result.probabilities) expect(p).toBeCloseTo(0.25, 6);
    }

    const refused = await postJson(adapter.url, {
      decision: { id: "d1", state: "s", question: "q", options: [{ id: "a" }, { id: "b" }] },
      permutations: 0,
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: "permutations must be an integer from 1 to 16" });
  });

  it("reports each option's spread across orders: the positional range", async () => {
    const plain = Object.values((await ask(adapter, ORDER)).answers.pick.probabilities);
    const range = Math.max(...plain) - Math.min(...plain);
    const { x_spread: spread } = (await ask(adapter, ORDER, 4)).answers.pick;
    for (const key of ORDER) expect(spread![key]).toBeCloseTo(range, 6);
  });
});

describe("a model that reads the options (tiny random GGUF)", () => {
  let model: GeneratedModel;
  let adapter: TestAdapter;
  beforeAll(async () => {
    model = generateModel("tiny");
    adapter = await startTestAdapter(model.file, { ADAPTER_THREADS: "1", ADAPTER_PERMUTATIONS: "4" });
  });
  afterAll(async () => {
    await adapter?.close();
    model?.cleanup();
  });

  it("uses ADAPTER_PERMUTATIONS when the request does not say", async () => {
    const answer = await ask(adapter, ORDER);
    expect(answer.x_timing.permutations).toBe(4);
    expect(answer.answers.pick.x_spread).toBeDefined();
  });

  it("gives the same answer for any rotation of the options once every rotation is scored", async () => {
    const plain = [await ask(adapter, ORDER, 1), await ask(adapter, ROTATED, 1)];
    expect(maxDifference(plain[0]!.answers.pick.probabilities, plain[1]!.answers.pick.probabilities)).toBeGreaterThan(
      1e-4,
    );
    const debiased = [await ask(adapter, ORDER, 4), await ask(adapter, ROTATED, 4)];
    expect(
      maxDifference(debiased[0]!.answers.pick.probabilities, debiased[1]!.answers.pick.probabilities),
    ).toBeLessThan(1e-6);
    const sum = Object.values(debiased[0]!.answers.pick.probabilities).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(1, 6);
  });
});
