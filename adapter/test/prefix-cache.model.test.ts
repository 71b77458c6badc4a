import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type GeneratedModel,
  generateModel,
  postJson,
  rawRequest,
  startTestAdapter,
  type TestAdapter,
} from "./support/adapter-harness.ts";

/**
 * Cross-request prefix cache: a request whose state equals the previous request's state keeps the evaluated
 * state prefix (`timing.prefix_reused`) and answers as a cold evaluation does. The state is evaluated in a pass
 * of its own, so a warm request's answers equal those of the cold request that evaluated its state exactly.
 * When the state was evaluated from another starting point (after another state, or after a chat completion),
 * llama.cpp batches it differently and float32 results may move in the last digits: compared with DESIGN §4's
 * tolerance for shared against separate scoring, 1e-4.
 */

const SAME = 1e-4;

type Answered = {
  answers: Record<string, { probabilities: Record<string, number> }>;
  timing: { prefix_tokens: number; prefix_reused: boolean; prefill_seconds: number };
};

const LONG_STATE = Array.from(
  { length: 60 },
  (_, i) => `Line ${i}: the customer reports a duplicate charge on invoice ${1000 + i}.`,
).join("\n");
const OTHER_STATE = "A short unrelated state about a delayed parcel.";

const questions = {
  refund: { type: "noul", instructions: "Does the customer ask for a refund?" },
  team: { type: "choice", instructions: "Which team?", criteria: { billing: null, technical: null, logistics: null } },
};

const ask = async (adapter: TestAdapter, state: string, asked: Record<string, unknown> = questions) => {
  const response = await postJson(adapter.url, { state, questions: asked });
  expect(response.status).toBe(200);
  return response.body as Answered;
};

function maxDifference(a: Answered, b: Answered): number {
  let max = 0;
  for (const [id, answer] of Object.entries(a.answers)) {
    for (const [key, p] of Object.entries(answer.probabilities)) {
      max = Math.max(max, Math.abs(p - b.answers[id]!.probabilities[key]!));
    }
  }
  return max;
}

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

describe("cross-request prefix cache", () => {
  it("reuses the state of the previous request and answers exactly as the cold request did", async () => {
    const cold = await ask(adapter, LONG_STATE);
    const warm = await ask(adapter, LONG_STATE);
    expect(cold.timing.prefix_reused).toBe(false);
    expect(warm.timing.prefix_reused).toBe(true);
    expect(warm.timing.prefix_tokens).toBe(cold.timing.prefix_tokens);
    expect(maxDifference(warm, cold)).toBe(0);
  });

  it("keeps the question too when the same single question is asked again, with the same answer", async () => {
    const one = { refund: questions.refund };
    await ask(adapter, OTHER_STATE, one);
    const cold = await ask(adapter, LONG_STATE, one);
    const warm = await ask(adapter, LONG_STATE, one);
    expect(warm.timing.prefix_reused).toBe(true);
    expect(maxDifference(warm, cold)).toBe(0);
  });

  it("reuses the state for different questions about it", async () => {
    await ask(adapter, LONG_STATE);
    const other = await ask(adapter, LONG_STATE, { urgent: { type: "noul", instructions: "Is it urgent?" } });
    expect(other.timing.prefix_reused).toBe(true);
  });

  it("evaluates again after another state, with the same answers", async () => {
    const first = await ask(adapter, LONG_STATE);
    await ask(adapter, OTHER_STATE);
    const again = await ask(adapter, LONG_STATE);
    expect(again.timing.prefix_reused).toBe(false);
    expect(maxDifference(again, first)).toBeLessThan(SAME);
  });

  it("stays correct when a chat completion used the sequence in between", async () => {
    const before = await ask(adapter, LONG_STATE);
    const chat = await rawRequest(adapter.url, {
      path: "/v1/chat/completions",
      body: JSON.stringify({ messages: [{ role: "user", content: "Hello" }], max_tokens: 4 }),
    });
    expect(chat.status).toBe(200);
    const after = await ask(adapter, LONG_STATE);
    expect(after.timing.prefix_reused).toBe(false);
    expect(maxDifference(after, before)).toBeLessThan(SAME);
  });
});
