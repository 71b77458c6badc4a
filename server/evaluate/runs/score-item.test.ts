import { softmax } from "@decision-console/adapter/contract";
import { describe, expect, it } from "vitest";
import { scoreAnswer } from "./score-item.ts";

const decision = {
  id: "d1",
  state: "A customer asks for a refund.",
  question: "Where should this ticket go?",
  options: [
    { id: "billing", description: "Billing" },
    { id: "support", description: "Support" },
    { id: "sales", description: "Sales" },
  ],
};

function answer(result: Record<string, unknown>) {
  const body = {
    result: {
      id: "d1",
      option_ids: ["billing", "support", "sales"],
      answer_token_ids: [1, 2, 3],
      allowed_token_mass: 0.9,
      full_vocab_argmax_id: 1,
      input_tokens: 100,
      prompt_sha256: "0".repeat(64),
      prompt_version: "v1",
      forward_seconds: 0.01,
      model: {
        file: "m.gguf",
        bytes: 1,
        sha256: "0".repeat(64),
        manifest: null,
        architecture: "llama",
        name: "m",
        backend: "cpu",
        gpu_layers: 0,
        total_layers: 1,
        threads: 1,
        context_size: 2048,
        parallel: 1,
        chat_template: "gguf",
      },
      ...result,
    },
    timing: {
      batch_size: 1,
      prefix_tokens: 0,
      prefill_seconds: 0.01,
      suffix_forward_seconds: 0.01,
      max_request_tokens: 8192,
      max_tokens_per_decision: 4096,
      total_seconds: 0.02,
    },
  };
  return { status: 200, body, latencyMs: 20, attempts: 1 };
}

describe("scoreAnswer's logits, what the temperature fit rescales", () => {
  it("are the adapter's own for one option order: softmax(logits, T) is the answer's probabilities", () => {
    const logits = [2, 0.5, -1];
    const score = scoreAnswer(
      decision,
      answer({ option_logits: logits, probabilities: softmax(logits, 1.5), temperature: 1.5 }),
    );
    expect(score.logits).toEqual(logits);
  });

  it("reproduce a debiased answer's averaged probabilities, not the sent order's logits", () => {
    // Averaged over three orders: the sent order's logits alone would give other probabilities.
    const averaged = [0.5, 0.3, 0.2];
    const score = scoreAnswer(
      decision,
      answer({
        option_logits: [3, 0, -3],
        probabilities: averaged,
        temperature: 2,
        permutations: 3,
        spread: [0, 0, 0],
      }),
    );
    const back = softmax(score.logits!, 2);
    for (const [i, p] of averaged.entries()) expect(back[i]).toBeCloseTo(p, 12);
  });
});
