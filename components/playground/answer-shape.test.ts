import { describe, expect, it } from "vitest";
import { answerShapeOf } from "./answer-shape.ts";

const chat = { choices: [{ message: { role: "assistant", content: "Hello" } }] };

describe("the playground reads an answer with the schema of what it asked", () => {
  it("reads a chat request's answer as a chat completion", () => {
    expect(answerShapeOf({ messages: [{ role: "user", content: "hi" }] }, chat)).toMatchObject({ kind: "chat" });
  });

  it("says a decision request's answer does not fit, rather than reading it as another kind", () => {
    const shape = answerShapeOf({ decision: { id: "d" } }, chat);
    expect(shape).toMatchObject({ kind: "unexpected", expected: "a decision answer ({result, timing})" });
    expect(shape.kind === "unexpected" && shape.problem).toMatch(/^result: /);
  });

  it("shows the answer to a request of no known kind raw", () => {
    expect(answerShapeOf({ prompt: "x" }, chat)).toEqual({ kind: "other", body: chat });
  });

  it("reads an OpenAI decisions request's answer (input and questions) as one, not as a systemone answer", () => {
    const answer = {
      answers: [
        { type: "predicate", name: null, probability: 0.7 },
        { type: "refusal", name: "long" },
      ],
      model: "m",
      usage: {
        input_tokens: 10,
        input_tokens_details: { cache_write_tokens: 0, cached_tokens: 4 },
        output_tokens: 0,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 10,
      },
      x_timing: null,
    };
    const request = { model: "m", input: "text", questions: [{ type: "predicate", instructions: "x" }] };
    expect(answerShapeOf(request, answer)).toEqual({ kind: "openai-decisions", body: answer });
  });
});
