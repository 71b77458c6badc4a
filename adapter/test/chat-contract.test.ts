import { describe, expect, it } from "vitest";
import { chatCompletionRequestSchema, messageText } from "../src/contract/chat.ts";
import { toChatHistory } from "../src/engine/chat.ts";
import { generationInput } from "../src/engine/chat-service.ts";

const parse = (body: unknown) => chatCompletionRequestSchema.parse(body);

describe("chat completion requests", () => {
  it("accepts what stock OpenAI clients send, ignoring fields the adapter does not honour", () => {
    const request = parse({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Hi" }],
      frequency_penalty: 0,
      presence_penalty: 0,
      n: 1,
      user: "someone",
    });
    expect(request.messages).toHaveLength(1);
    expect("frequency_penalty" in request).toBe(false);
  });

  it("reads text parts as one text", () => {
    const request = parse({
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Hello, " },
            { type: "text", text: "world" },
          ],
        },
      ],
    });
    expect(messageText(request.messages[0]!)).toBe("Hello, world");
  });

  it("applies OpenAI's defaults and prefers max_completion_tokens over max_tokens", () => {
    expect(generationInput(parse({ messages: [{ role: "user", content: "x" }] }))).toEqual({
      messages: [{ role: "user", content: "x" }],
      maxTokens: null,
      temperature: 1,
      topP: null,
      stop: [],
      seed: null,
    });
    const input = generationInput(
      parse({ messages: [{ role: "user", content: "x" }], max_tokens: 5, max_completion_tokens: 7, stop: "END" }),
    );
    expect(input.maxTokens).toBe(7);
    expect(input.stop).toEqual(["END"]);
  });
});

describe("chat history", () => {
  it("maps roles and ends with an open assistant turn", () => {
    const history = toChatHistory(
      parse({
        messages: [
          { role: "developer", content: "Be brief." },
          { role: "user", content: "Hi" },
          { role: "assistant", content: "Hello" },
          { role: "user", content: "Again" },
        ],
      }).messages,
    );
    expect(history).toEqual([
      { type: "system", text: "Be brief." },
      { type: "user", text: "Hi" },
      { type: "model", response: ["Hello"] },
      { type: "user", text: "Again" },
      { type: "model", response: [] },
    ]);
  });

  it("continues a final assistant message instead of opening a new turn", () => {
    const history = toChatHistory(
      parse({
        messages: [
          { role: "user", content: "Count" },
          { role: "assistant", content: "1, 2," },
        ],
      }).messages,
    );
    expect(history.at(-1)).toEqual({ type: "model", response: ["1, 2,"] });
    expect(history).toHaveLength(2);
  });
});
